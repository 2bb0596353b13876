import { useState } from "preact/hooks";
import { attempt, confirmDialog } from "../../../../common/components/notify.tsx";
import { Card, ErrorMessage, Loading, PageHeader } from "../../../../common/components/ui.tsx";
import { Link, navigate } from "../../../../common/hash-router.tsx";
import { useAsync } from "../../../../common/use-async.ts";
import { A } from "../../strings/admin.ts";
import { deleteIntegration, getIntegration, type IntegrationHealth, integrationAction, listCatalog } from "../api.ts";
import { Badge, Check, ErrorList, Facts } from "../components/ui.tsx";
import { formatDate } from "../format.ts";
import { IntegrationConfig } from "./integration-config.tsx";
import { GeneratedFiles, IntegrationSecrets } from "./integration-files.tsx";

function HealthResult({ health }: { health: IntegrationHealth }) {
  const appservice = (label: string, check: IntegrationHealth["appservice"]) =>
    check ? <Check ok={check.registered} label={label} detail={check.reason ?? check.userId} /> : null;
  return (
    <div data-testid="health-result" data-healthy={health.healthy}>
      <p class={health.healthy ? "result-ok" : "result-bad"} role="status">
        {health.healthy ? A.integrations.healthy : A.integrations.unhealthy}
        <span class="muted small"> · {formatDate(health.checkedAt)}</span>
      </p>
      <ul class="checks">
        <Check ok={health.homeserverReachable} label={A.integrations.diag.homeserverConnectivity} />
        {appservice(A.integrations.appservice, health.appservice)}
        {appservice(A.integrations.doublePuppet, health.doublePuppet)}
        <Check ok={health.files.present} label={A.integrations.filesPresent} detail={health.files.missing.join(", ") || null} />
        <Check
          ok={health.files.writable}
          label={A.integrations.filesWritable}
          detail={health.files.notWritable.join(", ") || null}
        />
        <Check
          ok={health.files.upToDate}
          label={A.integrations.filesUpToDate}
          detail={health.files.modified.join(", ") || null}
        />
        <Check
          ok={health.missingSecrets.length === 0}
          label={A.integrations.secretsSet}
          detail={health.missingSecrets.join(", ") || null}
        />
      </ul>
      <ErrorList errors={health.errors} />
    </div>
  );
}

export function IntegrationDetailPage({ integrationId }: { integrationId: string }) {
  const state = useAsync(() => getIntegration(integrationId), [integrationId]);
  const catalog = useAsync(() => listCatalog({}), []);
  const [busy, setBusy] = useState(false);
  const [health, setHealth] = useState<IntegrationHealth | null>(null);
  if (state.error && !state.data) return <ErrorMessage error={state.error} onRetry={() => state.reload()} />;
  if (!state.data) return <Loading />;
  const item = state.data;
  const entry = catalog.data?.find((candidate) => candidate.id === item.catalogId);
  const shownHealth = health ?? item.health;

  const act = async (action: "enable" | "disable" | "health_check") => {
    setBusy(true);
    const result = await attempt(
      A.integrations.actions[action],
      () => integrationAction(item.id, action),
      action === "health_check" ? undefined : A.integrations.done[action],
    );
    setBusy(false);
    if (!result) return;
    if (result.health) setHealth(result.health);
    state.reload(true);
  };
  const remove = async () => {
    const ok = await confirmDialog({
      title: A.integrations.deleteTitle(item.name),
      text: A.integrations.deleteText,
      confirmLabel: A.integrations.uninstall,
      danger: true,
    });
    if (ok && (await attempt(A.integrations.uninstall, () => deleteIntegration(item.id), A.integrations.deleted(item.name))))
      navigate("/integrations");
  };

  return (
    <>
      <PageHeader title={item.name} crumb={<Link href="/integrations">{A.nav.integrations}</Link>}>
        {item.enabled ? (
          <button type="button" class="btn" disabled={busy} onClick={() => act("disable")}>
            {A.integrations.actions.disable}
          </button>
        ) : (
          <button type="button" class="btn btn-primary" disabled={busy} onClick={() => act("enable")}>
            {A.integrations.actions.enable}
          </button>
        )}
        <button type="button" class="btn" disabled={busy} onClick={() => act("health_check")}>
          {A.integrations.actions.health_check}
        </button>
        <button
          type="button"
          class="btn btn-danger-outline"
          disabled={item.enabled}
          title={item.enabled ? A.integrations.deleteBlocked : undefined}
          onClick={remove}
        >
          {A.integrations.uninstall}
        </button>
      </PageHeader>
      <div class="grid">
        <Card title={A.integrations.details}>
          <Facts
            items={[
              [
                A.integrations.status,
                item.enabled ? (
                  <Badge tone="ok">{A.integrations.enabled}</Badge>
                ) : (
                  <Badge tone="off">{A.integrations.disabled}</Badge>
                ),
              ],
              [A.integrations.type, A.integrations.types[item.type] ?? item.type],
              [A.integrations.mode, A.integrations.modes[item.deploymentMode as "managed" | "guided"] ?? item.deploymentMode],
              [A.integrations.configVersion, String(item.configVersion)],
              [A.integrations.appserviceId, item.appserviceId],
              [A.integrations.appserviceUser, item.appserviceUserId ? <code>{item.appserviceUserId}</code> : null],
              [A.integrations.filesDir, <code>{item.filesDir}</code>],
              [
                A.integrations.docs,
                item.catalog ? (
                  <a href={item.catalog.docsUrl} target="_blank" rel="noopener noreferrer">
                    {item.catalog.docsUrl}
                  </a>
                ) : null,
              ],
            ]}
          />
        </Card>
        <Card title={A.integrations.health}>
          {shownHealth ? <HealthResult health={shownHealth} /> : <p class="muted">{A.integrations.notChecked}</p>}
        </Card>
        <Card title={A.integrations.configuration} class="span-2">
          {catalog.error ? (
            <ErrorMessage error={catalog.error} title={A.integrations.catalogFailed} onRetry={() => catalog.reload()} />
          ) : null}
          {entry ? (
            <IntegrationConfig
              key={item.configVersion}
              integration={item}
              fields={entry.configFields}
              onSaved={(next) => state.setData(next)}
            />
          ) : catalog.error ? null : (
            <Loading />
          )}
        </Card>
        <Card title={A.integrations.files} class="span-2">
          <GeneratedFiles files={item.files} />
        </Card>
        <Card title={A.integrations.secrets} class="span-2">
          <IntegrationSecrets integration={item} specs={entry?.secrets ?? []} onChanged={() => state.reload(true)} />
        </Card>
        {item.snapshots.length > 0 ? (
          <Card title={A.integrations.history} class="span-2">
            <ul class="list">
              {[...item.snapshots].reverse().map((snapshot) => (
                <li key={snapshot.version} class="list-row">
                  <span class="row-main">
                    <strong>v{snapshot.version}</strong> · {snapshot.reason} · {snapshot.actor}
                  </span>
                  <span class="muted small">{formatDate(snapshot.createdAt)}</span>
                </li>
              ))}
            </ul>
          </Card>
        ) : null}
      </div>
    </>
  );
}
