import { useState } from "preact/hooks";
import { Card, Empty, ErrorMessage, Loading, PageHeader, Pager } from "../../../../common/components/ui.tsx";
import { useStore } from "../../../../common/store.ts";
import { useAsync, useDebounced } from "../../../../common/use-async.ts";
import { A } from "../../strings/admin.ts";
import { type AuditEntry, listAudit } from "../api.ts";
import { SearchFilter, SelectFilter } from "../components/filters.tsx";
import { formatDate } from "../format.ts";
import { servers } from "../servers-store.ts";

/** The audit actions by resource, for the action filter (a resource alone matches all of its actions). */
const ACTIONS: Record<string, string[]> = {
  server: ["created", "updated", "enabled", "disabled", "default.changed", "token.rotated", "diagnostics.run", "deleted"],
  token: ["created", "updated", "disabled", "deleted"],
  branding: ["created", "updated", "published", "reset", "deleted", "asset.uploaded", "asset.deleted"],
  bot: ["created", "updated", "activated", "deactivated", "deleted", "room.assigned", "room.unassigned", "feature.updated"],
  integration: ["installed", "updated", "enabled", "disabled", "uninstalled", "secret.rotated", "secret.deleted"],
  auth: ["login", "login.failed", "login.failed.summary"],
};

/**
 * The entry's target by name (server, token label, bot, profile, integration, administrator), the id in its tooltip;
 * a deleted one by its last known name, marked. Without a name (a token without a label) the target itself.
 */
function Target({ entry }: { entry: AuditEntry }) {
  // An administrator is named by e-mail (as the actor column does); the name they go by is in the tooltip.
  if (entry.action.startsWith("auth.")) {
    return <span title={entry.targetName ?? undefined}>{entry.target}</span>;
  }
  if (entry.targetName === null) {
    return <code class="target">{entry.target}</code>;
  }
  return (
    <span class="target-name" title={entry.targetGone ? A.audit.goneTitle(entry.target) : A.audit.idTitle(entry.target)}>
      {entry.targetName}
      {entry.targetGone ? <span class="muted small"> ({A.audit.gone})</span> : null}
      {entry.action.startsWith("token.") ? <code class="block small">{entry.target}</code> : null}
    </span>
  );
}

export function AuditPage() {
  const serverList = useStore(servers).list ?? [];
  const [serverId, setServerId] = useState("");
  const [action, setAction] = useState("");
  const [actorInput, setActorInput] = useState("");
  const actor = useDebounced(actorInput.trim(), 300);
  const [limit, setLimit] = useState(50);
  const [offset, setOffset] = useState(0);
  const page = useAsync(
    () => listAudit({ serverId: serverId || undefined, action: action || undefined, actor: actor || undefined, limit, offset }),
    [serverId, action, actor, limit, offset],
  );
  const serverName = (entry: AuditEntry) =>
    entry.serverId === null ? (
      A.audit.portalWide
    ) : (
      <span title={A.audit.idTitle(entry.serverId)}>{entry.serverName ?? entry.serverId}</span>
    );
  const filter = (apply: () => void) => {
    apply();
    setOffset(0);
  };

  return (
    <>
      <PageHeader title={A.audit.title} />
      <div class="toolbar filters" data-testid="audit-filters">
        <SelectFilter
          label={A.audit.server}
          value={serverId}
          options={[["", A.audit.allServers], ...serverList.map((server) => [server.id, server.name] as const)]}
          onChange={(value) => filter(() => setServerId(value))}
        />
        <label class="inline-field">
          {A.audit.action}
          <select value={action} onChange={(e) => filter(() => setAction(e.currentTarget.value))}>
            <option value="">{A.audit.allActions}</option>
            {Object.entries(ACTIONS).map(([resource, actions]) => (
              <optgroup key={resource} label={A.audit.resources[resource as keyof typeof A.audit.resources]}>
                <option value={resource}>
                  {A.audit.everyAction(A.audit.resources[resource as keyof typeof A.audit.resources])}
                </option>
                {actions.map((name) => (
                  <option key={name} value={`${resource}.${name}`}>
                    {resource}.{name}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </label>
        <SearchFilter
          label={A.audit.actor}
          value={actorInput}
          placeholder={A.audit.actorPlaceholder}
          onInput={(value) => filter(() => setActorInput(value))}
        />
        <SelectFilter
          label={A.common.perPage}
          value={String(limit)}
          options={["25", "50", "100", "200"].map((n) => [n, n] as const)}
          onChange={(value) => filter(() => setLimit(Number(value)))}
        />
      </div>
      {page.error ? <ErrorMessage error={page.error} title={A.audit.loadFailed} onRetry={() => page.reload()} /> : null}
      {!page.data ? (
        page.error ? null : (
          <Loading />
        )
      ) : page.data.logs.length === 0 ? (
        <Empty title={A.audit.none} />
      ) : (
        <>
          <p class="muted small" aria-live="polite">
            {A.audit.total(page.data.total)}
          </p>
          <Card class="flush">
            <table class="table responsive" data-testid="audit-table">
              <thead>
                <tr>
                  <th scope="col">{A.audit.time}</th>
                  <th scope="col">{A.audit.action}</th>
                  <th scope="col">{A.audit.target}</th>
                  <th scope="col">{A.audit.actor}</th>
                  <th scope="col">{A.audit.server}</th>
                </tr>
              </thead>
              <tbody>
                {page.data.logs.map((entry) => (
                  <tr key={entry.id} data-action={entry.action}>
                    <td>
                      <time dateTime={entry.createdAt}>{formatDate(entry.createdAt)}</time>
                    </td>
                    <td data-label={A.audit.action}>
                      <code>{entry.action}</code>
                    </td>
                    <td data-label={A.audit.target}>
                      <Target entry={entry} />
                      {entry.detail !== null ? (
                        <details class="detail">
                          <summary>{A.common.details}</summary>
                          <pre>{JSON.stringify(entry.detail, null, 2)}</pre>
                        </details>
                      ) : null}
                    </td>
                    <td data-label={A.audit.actor}>
                      {entry.actor === "anonymous" ? <em>{A.audit.anonymous}</em> : entry.actor}
                      <span class="block small muted">{entry.ip}</span>
                    </td>
                    <td data-label={A.audit.server}>{serverName(entry)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Card>
          <Pager total={page.data.total} offset={offset} limit={limit} onChange={setOffset} label={A.audit.paging} />
        </>
      )}
    </>
  );
}
