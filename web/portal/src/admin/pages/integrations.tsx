import { useState } from "preact/hooks";
import { attempt } from "../../../../common/components/notify.tsx";
import { Card, Empty, ErrorMessage, Loading, PageHeader } from "../../../../common/components/ui.tsx";
import { Link, navigate } from "../../../../common/hash-router.tsx";
import { useAsync, useDebounced } from "../../../../common/use-async.ts";
import { A } from "../../strings/admin.ts";
import {
  type IntegrationDiagnostics,
  type IntegrationType,
  installIntegration,
  integrationDiagnostics,
  listCatalog,
  listIntegrations,
} from "../api.ts";
import { SearchFilter, SelectFilter } from "../components/filters.tsx";
import { Badge, Check, ErrorList } from "../components/ui.tsx";
import { formatDate } from "../format.ts";
import { WithServer } from "./dashboard.tsx";

const TYPES: IntegrationType[] = ["bridge", "bot", "homeserver_module", "external_service"];

function Installed({ serverId }: { serverId: string }) {
  const list = useAsync(() => listIntegrations(serverId), [serverId]);
  if (list.error) return <ErrorMessage error={list.error} title={A.integrations.loadFailed} onRetry={() => list.reload()} />;
  if (!list.data) return <Loading />;
  if (list.data.length === 0) {
    return (
      <Empty title={A.integrations.none}>
        <Link href="/integrations?tab=catalog" class="btn btn-primary">
          {A.integrations.browse}
        </Link>
      </Empty>
    );
  }
  return (
    <Card class="flush">
      <table class="table responsive" data-testid="integrations-table">
        <thead>
          <tr>
            <th scope="col">{A.integrations.name}</th>
            <th scope="col">{A.integrations.type}</th>
            <th scope="col">{A.integrations.status}</th>
            <th scope="col">{A.integrations.health}</th>
          </tr>
        </thead>
        <tbody>
          {list.data.map((item) => (
            <tr key={item.id}>
              <td>
                <Link href={`/integrations/${item.id}`}>
                  <strong>{item.name}</strong>
                </Link>
                <span class="block small muted">
                  {A.integrations.modes[item.deploymentMode as "managed" | "guided"] ?? item.deploymentMode} · v
                  {item.configVersion}
                </span>
              </td>
              <td data-label={A.integrations.type}>{A.integrations.types[item.type] ?? item.type}</td>
              <td data-label={A.integrations.status}>
                {item.enabled ? (
                  <Badge tone="ok">{A.integrations.enabled}</Badge>
                ) : (
                  <Badge tone="off">{A.integrations.disabled}</Badge>
                )}
              </td>
              <td data-label={A.integrations.health}>
                {item.healthy === null ? (
                  A.integrations.notChecked
                ) : item.healthy ? (
                  <Badge tone="ok">{A.integrations.healthy}</Badge>
                ) : (
                  <Badge tone="bad">{A.integrations.unhealthy}</Badge>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

function Catalog({ serverId }: { serverId: string }) {
  const [type, setType] = useState("");
  const [search, setSearch] = useState("");
  const query = useDebounced(search.trim(), 250);
  const catalog = useAsync(() => listCatalog({ type: type || undefined, search: query || undefined }), [type, query]);
  const installed = useAsync(() => listIntegrations(serverId), [serverId]);
  const [busy, setBusy] = useState<string | null>(null);
  const install = async (catalogId: string, name: string) => {
    setBusy(catalogId);
    const result = await attempt(A.integrations.install(name), () => installIntegration(serverId, catalogId));
    setBusy(null);
    if (result) navigate(`/integrations/${result.integration.id}`);
  };
  return (
    <>
      <div class="toolbar filters" data-testid="catalog-filters">
        <SelectFilter
          label={A.integrations.type}
          value={type}
          options={[["", A.integrations.allTypes], ...TYPES.map((t) => [t, A.integrations.types[t] ?? t] as const)]}
          onChange={setType}
        />
        <SearchFilter value={search} maxLength={100} onInput={setSearch} placeholder={A.integrations.searchPlaceholder} />
      </div>
      {catalog.error ? (
        <ErrorMessage error={catalog.error} title={A.integrations.catalogFailed} onRetry={() => catalog.reload()} />
      ) : null}
      {installed.error ? <ErrorMessage error={installed.error} title={A.integrations.loadFailed} /> : null}
      {!catalog.data ? (
        catalog.error ? null : (
          <Loading />
        )
      ) : catalog.data.length === 0 ? (
        <Empty title={A.integrations.noMatch} />
      ) : (
        <ul class="tiles" data-testid="catalog">
          {catalog.data.map((entry) => {
            const existing = installed.data?.find((item) => item.catalogId === entry.id);
            return (
              <li key={entry.id} class="tile" data-catalog={entry.id}>
                <div class="tile-head">
                  <h3>{entry.name}</h3>
                  <Badge tone={entry.maturity === "stable" ? "ok" : "warn"}>{entry.maturity}</Badge>
                </div>
                <p class="small muted">
                  {A.integrations.types[entry.type]} ·{" "}
                  {entry.deploymentModes.map((m) => A.integrations.modes[m as "managed" | "guided"] ?? m).join(", ")}
                </p>
                <p>{entry.description}</p>
                {entry.tags.length > 0 ? (
                  <ul class="tags">
                    {entry.tags.map((tag) => (
                      <li key={tag}>{tag}</li>
                    ))}
                  </ul>
                ) : null}
                <div class="button-row">
                  {existing ? (
                    <Link href={`/integrations/${existing.id}`} class="btn btn-small">
                      {A.integrations.installedOpen}
                    </Link>
                  ) : (
                    <button
                      type="button"
                      class="btn btn-small btn-primary"
                      disabled={busy !== null}
                      onClick={() => install(entry.id, entry.name)}
                      aria-label={A.integrations.install(entry.name)}
                    >
                      {busy === entry.id ? A.integrations.installing : A.integrations.installShort}
                    </button>
                  )}
                  <a class="btn btn-small btn-plain" href={entry.docsUrl} target="_blank" rel="noopener noreferrer">
                    {A.integrations.docs}
                  </a>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}

export function SystemDiagnostics({ result }: { result: IntegrationDiagnostics }) {
  const rows = (record: Record<string, { name?: string; displayName?: string; healthy?: boolean; errors?: string[] }>) =>
    Object.entries(record).map(([id, item]) => (
      <Check
        key={id}
        ok={item.healthy ?? null}
        label={item.name ?? item.displayName ?? id}
        detail={(item.errors ?? []).join("; ") || null}
      />
    ));
  return (
    <div data-testid="integration-diagnostics">
      <p class="muted small">{formatDate(result.checkedAt)}</p>
      <ul class="checks">
        <Check ok={result.homeserverConnectivity} label={A.integrations.diag.homeserverConnectivity} />
        <Check ok={result.appserviceRegistrationOk} label={A.integrations.diag.appserviceRegistrationOk} />
        <Check ok={result.filesystemWritable} label={A.integrations.diag.filesystemWritable} />
        <Check ok={result.dockerAvailable} label={A.integrations.diag.dockerAvailable} />
        <Check ok={result.dockerComposeAvailable} label={A.integrations.diag.dockerComposeAvailable} />
        <Check
          ok={true}
          label={A.integrations.diag.capabilityMode}
          detail={A.integrations.modes[result.capabilityMode as "managed" | "guided"] ?? result.capabilityMode}
        />
      </ul>
      {result.envVarsMissing.length > 0 ? (
        <p class="notice">
          {A.integrations.diag.envMissing}: <code>{result.envVarsMissing.join(", ")}</code>
        </p>
      ) : null}
      {result.envVarsPresent.length > 0 ? (
        <p class="small muted">
          {A.integrations.diag.envPresent}: <code>{result.envVarsPresent.join(", ")}</code>
        </p>
      ) : null}
      {Object.keys(result.integrationHealth).length > 0 ? (
        <>
          <h3>{A.integrations.diag.integrations}</h3>
          <ul class="checks">{rows(result.integrationHealth)}</ul>
        </>
      ) : null}
      {Object.keys(result.botHealth).length > 0 ? (
        <>
          <h3>{A.integrations.diag.bots}</h3>
          <ul class="checks">{rows(result.botHealth)}</ul>
        </>
      ) : null}
      <ErrorList errors={result.errors} title={A.diag.errors} />
    </div>
  );
}

function Diagnostics({ serverId }: { serverId: string }) {
  const [run, setRun] = useState(0);
  const result = useAsync(() => (run === 0 ? Promise.resolve(null) : integrationDiagnostics(serverId)), [serverId, run]);
  return (
    <Card
      title={A.integrations.diagnostics}
      actions={
        <button type="button" class="btn btn-primary" disabled={result.loading && run > 0} onClick={() => setRun(run + 1)}>
          {result.loading && run > 0 ? A.diag.running : A.diag.run}
        </button>
      }
    >
      <p class="hint">{A.integrations.diagnosticsHint}</p>
      {result.error ? <ErrorMessage error={result.error} title={A.integrations.diagnosticsFailed} /> : null}
      {result.data ? <SystemDiagnostics result={result.data} /> : null}
    </Card>
  );
}

export function IntegrationsPage({ tab }: { tab: string }) {
  const tabs: [string, string][] = [
    ["installed", A.integrations.installed],
    ["catalog", A.integrations.catalog],
    ["diagnostics", A.integrations.diagnostics],
  ];
  return (
    <WithServer title={A.integrations.title}>
      {(serverId) => (
        <>
          <PageHeader title={A.integrations.title} />
          <nav class="tabs" aria-label={A.integrations.sections}>
            {tabs.map(([key, label]) => (
              <Link
                key={key}
                href={`/integrations?tab=${key}`}
                class={`tab${tab === key ? " active" : ""}`}
                aria-current={tab === key ? "page" : undefined}
              >
                {label}
              </Link>
            ))}
          </nav>
          {tab === "catalog" ? (
            <Catalog serverId={serverId} />
          ) : tab === "diagnostics" ? (
            <Diagnostics serverId={serverId} />
          ) : (
            <Installed serverId={serverId} />
          )}
        </>
      )}
    </WithServer>
  );
}
