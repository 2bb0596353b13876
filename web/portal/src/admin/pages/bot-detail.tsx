import { useState } from "preact/hooks";
import { attempt, confirmDialog, notify } from "../../../../common/components/notify.tsx";
import { Card, ErrorMessage, Field, Loading, PageHeader } from "../../../../common/components/ui.tsx";
import { Link, navigate } from "../../../../common/hash-router.tsx";
import { type AsyncState, useAsync } from "../../../../common/use-async.ts";
import { A } from "../../strings/admin.ts";
import { type BotDetail, botAction, deleteBot, getBot, setBotToken, type TokenCheck, updateBot } from "../api.ts";
import { Badge, Facts } from "../components/ui.tsx";
import { formatDate } from "../format.ts";
import { BotAvatarField, BotDisplayNameField, useBotSettings } from "./bot-fields.tsx";
import { BotFeatures, BotRooms } from "./bot-rooms.tsx";

function EditBot({ bot, onSaved }: { bot: BotDetail; onSaved: () => void }) {
  const [displayName, setDisplayName] = useState(bot.displayName);
  const [avatarUrl, setAvatarUrl] = useState(bot.avatarUrl ?? "");
  const settings = useBotSettings(bot.template?.settings ?? null, bot.config);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!settings.valid) return;
    const body: Record<string, unknown> = {};
    if (displayName.trim() !== bot.displayName) body.displayName = displayName.trim();
    if ((avatarUrl.trim() || null) !== bot.avatarUrl) body.avatarUrl = avatarUrl.trim() || null;
    if (JSON.stringify(settings.config) !== JSON.stringify(bot.config)) body.config = settings.config;
    if (Object.keys(body).length === 0) return;
    setBusy(true);
    setError(null);
    try {
      const result = await updateBot(bot.id, body);
      const sync = result.profileSync;
      notify.ok(
        sync
          ? A.bots.savedWithSync(
              Object.entries(sync)
                .map(([k, v]) => `${k}: ${v}`)
                .join(", "),
            )
          : A.common.saved,
      );
      onSaved();
    } catch (failure) {
      setError(failure as Error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} noValidate>
      {error ? <ErrorMessage error={error} title={A.bots.saveFailed} focus /> : null}
      <div class="form-grid">
        <BotDisplayNameField value={displayName} onInput={setDisplayName} />
        <BotAvatarField value={avatarUrl} onInput={setAvatarUrl} />
      </div>
      <h3>{A.bots.templateSettings}</h3>
      {settings.editor}
      <button type="submit" class="btn btn-primary" disabled={busy}>
        {A.common.save}
      </button>
    </form>
  );
}

function AccessToken({ bot, state }: { bot: BotDetail; state: AsyncState<BotDetail> }) {
  const [token, setToken] = useState("");
  const [busy, setBusy] = useState(false);
  const [check, setCheck] = useState<TokenCheck | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!token.trim()) return;
    setBusy(true);
    const result = await attempt(A.bots.setToken, () => setBotToken(bot.id, token.trim()));
    setBusy(false);
    if (!result) return;
    setToken("");
    setCheck(result.tokenCheck ?? null);
    state.reload(true);
  };
  return (
    <>
      <p>
        {bot.hasAccessToken
          ? bot.tokenVerifiedAt
            ? A.bots.tokenVerifiedAt(formatDate(bot.tokenVerifiedAt))
            : A.bots.tokenStoredUnverified
          : A.bots.noTokenText}
      </p>
      <p class="hint">{A.bots.tokenHint}</p>
      {check ? (
        <p class={check.verified ? "result-ok" : "notice"} role="status">
          {check.verified ? A.bots.tokenBelongs(check.userId) : check.reason}
        </p>
      ) : null}
      <form class="inline-form" onSubmit={submit}>
        <Field label={A.bots.newToken}>
          {(props) => (
            <input {...props} type="password" autocomplete="off" value={token} onInput={(e) => setToken(e.currentTarget.value)} />
          )}
        </Field>
        <button type="submit" class="btn" disabled={busy || !token.trim()}>
          {A.bots.setToken}
        </button>
      </form>
    </>
  );
}

export function BotDetailPage({ botId }: { botId: string }) {
  const state = useAsync(() => getBot(botId), [botId]);
  const [busy, setBusy] = useState(false);
  if (state.error && !state.data) return <ErrorMessage error={state.error} onRetry={() => state.reload()} />;
  if (!state.data) return <Loading />;
  const bot = state.data;
  const active = bot.status === "active";

  const toggle = async () => {
    setBusy(true);
    const action = active ? "deactivate" : "activate";
    const done = await attempt(A.bots.actions[action], () => botAction(bot.id, action), A.bots.done[action]);
    setBusy(false);
    if (done) state.reload(true);
  };
  const remove = async () => {
    const ok = await confirmDialog({
      title: A.bots.deleteTitle(bot.displayName),
      text: A.bots.deleteText,
      confirmLabel: A.common.delete,
      danger: true,
    });
    if (!ok) return;
    if (await attempt(A.common.delete, () => deleteBot(bot.id), A.bots.deleted(bot.displayName))) navigate("/bots");
  };

  return (
    <>
      <PageHeader title={bot.displayName} crumb={<Link href="/bots">{A.nav.bots}</Link>}>
        <button type="button" class={`btn ${active ? "" : "btn-primary"}`} disabled={busy} onClick={toggle}>
          {active ? A.bots.actions.deactivate : A.bots.actions.activate}
        </button>
        <button
          type="button"
          class="btn btn-danger-outline"
          disabled={active}
          title={active ? A.bots.deleteBlocked : undefined}
          onClick={remove}
        >
          {A.common.delete}
        </button>
      </PageHeader>
      <div class="grid">
        <Card title={A.bots.details}>
          <Facts
            items={[
              [A.bots.status, active ? <Badge tone="ok">{A.bots.active}</Badge> : <Badge tone="off">{A.bots.inactive}</Badge>],
              [A.bots.matrixId, <code>{bot.matrixUserId}</code>],
              [A.bots.template, bot.template ? `${bot.template.icon} ${bot.template.name}` : bot.templateId],
              [A.bots.avatarUrl, bot.avatarUrl],
              [A.bots.profileSynced, formatDate(bot.profileSyncedAt)],
              [A.servers.createdAt, formatDate(bot.createdAt)],
            ]}
          />
        </Card>
        <Card title={A.bots.accessToken}>
          <AccessToken bot={bot} state={state} />
        </Card>
        <Card title={A.bots.settings} class="span-2">
          <EditBot key={bot.updatedAt} bot={bot} onSaved={() => state.reload(true)} />
        </Card>
        <Card title={A.bots.rooms}>
          <BotRooms bot={bot} onChanged={() => state.reload(true)} />
        </Card>
        <Card title={A.bots.featureToggles}>
          <BotFeatures bot={bot} onChanged={() => state.reload(true)} />
        </Card>
      </div>
    </>
  );
}
