import { useState } from "preact/hooks";
import { Card, Empty, ErrorMessage, Field, Loading, PageHeader } from "../../../../common/components/ui.tsx";
import { Link, navigate } from "../../../../common/hash-router.tsx";
import { useAsync } from "../../../../common/use-async.ts";
import { A } from "../../strings/admin.ts";
import { type BotTemplate, createBot, listBots, listBotTemplates } from "../api.ts";
import { Badge } from "../components/ui.tsx";
import { BotAvatarField, BotDisplayNameField, useBotSettings } from "./bot-fields.tsx";
import { WithServer } from "./dashboard.tsx";

const LOCALPART = /^[a-z0-9._=-]+$/;

/**
 * Creates a bot from a template: display name, optional localpart and avatar, and its settings in the form generated
 * from the template's settings (starting at their defaults).
 */
function CreateBot({ serverId, template, onCancel }: { serverId: string; template: BotTemplate; onCancel: () => void }) {
  const [displayName, setDisplayName] = useState(template.name);
  const [localpart, setLocalpart] = useState("");
  const [avatarUrl, setAvatarUrl] = useState("");
  const settings = useBotSettings(template.settings, template.defaultConfig);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const localpartError = localpart && (!LOCALPART.test(localpart) || localpart.startsWith("_")) ? A.bots.localpartRule : null;

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!settings.valid || localpartError || !displayName.trim()) return;
    setBusy(true);
    setError(null);
    try {
      const bot = await createBot(serverId, {
        templateId: template.id,
        displayName: displayName.trim(),
        ...(localpart ? { localpart } : {}),
        ...(avatarUrl.trim() ? { avatarUrl: avatarUrl.trim() } : {}),
        config: settings.config,
      });
      navigate(`/bots/${bot.id}`);
    } catch (failure) {
      setError(failure as Error);
      setBusy(false);
    }
  };

  return (
    <Card title={A.bots.createFrom(template.name)}>
      <form onSubmit={submit} noValidate data-testid="bot-create-form">
        {error ? <ErrorMessage error={error} title={A.bots.createFailed} focus /> : null}
        <div class="form-grid">
          <BotDisplayNameField
            value={displayName}
            onInput={setDisplayName}
            error={displayName.trim() ? null : A.form.required}
            autofocus
          />
          <Field label={A.bots.localpart} hint={A.bots.localpartHint(template.suggestedLocalpart)} error={localpartError}>
            {(props) => (
              <input
                {...props}
                type="text"
                maxLength={64}
                spellcheck={false}
                value={localpart}
                onInput={(e) => setLocalpart(e.currentTarget.value)}
              />
            )}
          </Field>
          <BotAvatarField value={avatarUrl} onInput={setAvatarUrl} />
        </div>
        <h3>{A.bots.templateSettings}</h3>
        {settings.editor}
        <div class="form-actions">
          <button type="submit" class="btn btn-primary" disabled={busy}>
            {A.bots.createSubmit}
          </button>
          <button type="button" class="btn" onClick={onCancel}>
            {A.common.cancel}
          </button>
        </div>
      </form>
    </Card>
  );
}

function BotsOfServer({ serverId }: { serverId: string }) {
  const bots = useAsync(() => listBots(serverId), [serverId]);
  const templates = useAsync(() => listBotTemplates(), []);
  const [template, setTemplate] = useState<BotTemplate | null>(null);
  const templateOf = (id: string) => templates.data?.find((t) => t.id === id);
  return (
    <>
      <PageHeader title={A.bots.title} />
      {bots.error ? <ErrorMessage error={bots.error} title={A.bots.loadFailed} onRetry={() => bots.reload()} /> : null}
      {!bots.data ? (
        bots.error ? null : (
          <Loading />
        )
      ) : bots.data.length === 0 ? (
        <Empty title={A.bots.none}>
          <p>{A.bots.noneText}</p>
        </Empty>
      ) : (
        <Card class="flush">
          <table class="table responsive" data-testid="bots-table">
            <thead>
              <tr>
                <th scope="col">{A.bots.bot}</th>
                <th scope="col">{A.bots.template}</th>
                <th scope="col">{A.bots.status}</th>
                <th scope="col">{A.bots.accessToken}</th>
              </tr>
            </thead>
            <tbody>
              {bots.data.map((bot) => (
                <tr key={bot.id}>
                  <td>
                    <Link href={`/bots/${bot.id}`}>
                      <strong>{bot.displayName}</strong>
                    </Link>
                    <code class="block small">{bot.matrixUserId}</code>
                  </td>
                  <td data-label={A.bots.template}>
                    <span aria-hidden="true">{templateOf(bot.templateId)?.icon} </span>
                    {templateOf(bot.templateId)?.name ?? bot.templateId}
                  </td>
                  <td data-label={A.bots.status}>
                    {bot.status === "active" ? (
                      <Badge tone="ok">{A.bots.active}</Badge>
                    ) : (
                      <Badge tone="off">{A.bots.inactive}</Badge>
                    )}
                  </td>
                  <td data-label={A.bots.accessToken}>
                    {bot.hasAccessToken ? (bot.tokenVerifiedAt ? A.bots.tokenVerified : A.bots.tokenUnverified) : A.bots.noToken}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
      <h2 class="section-title">{A.bots.templates}</h2>
      {templates.error ? (
        <ErrorMessage error={templates.error} title={A.bots.templatesFailed} onRetry={() => templates.reload()} />
      ) : null}
      {template ? (
        <CreateBot key={template.id} serverId={serverId} template={template} onCancel={() => setTemplate(null)} />
      ) : null}
      {templates.data ? (
        <ul class="tiles" data-testid="bot-templates">
          {templates.data.map((t) => (
            <li key={t.id} class="tile">
              <div class="tile-head">
                <span class="tile-icon" aria-hidden="true">
                  {t.icon}
                </span>
                <h3>{t.name}</h3>
              </div>
              <p>{t.description}</p>
              <p class="small muted">
                {A.bots.defaults}:{" "}
                {t.defaultFeatures.map((key) => A.bots.features[key as keyof typeof A.bots.features] ?? key).join(", ") ||
                  A.common.none}
                {t.threadAware ? ` · ${A.bots.threadAware}` : ""}
              </p>
              <button type="button" class="btn btn-small" onClick={() => setTemplate(t)} aria-label={A.bots.useTemplate(t.name)}>
                {A.bots.use}
              </button>
            </li>
          ))}
        </ul>
      ) : templates.error ? null : (
        <Loading />
      )}
    </>
  );
}

export function BotsPage() {
  return <WithServer title={A.bots.title}>{(serverId) => <BotsOfServer key={serverId} serverId={serverId} />}</WithServer>;
}
