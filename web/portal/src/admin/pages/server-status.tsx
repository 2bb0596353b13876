import { A } from "../../strings/admin.ts";
import type { ServerRecord } from "../api.ts";
import { Badge } from "../components/ui.tsx";

/**
 * Enabled / disabled / draft, "Default" when it is the default server, and whether the portal has checked it: "Not
 * checked" (saved anyway, never diagnosed) or "Problems found" (the last diagnostics failed).
 */
export function ServerStatus({ server }: { server: ServerRecord }) {
  return (
    <span class="badges">
      {server.enabled ? (
        <Badge tone="ok" testId="server-state">
          {A.servers.enabled}
        </Badge>
      ) : server.status === "draft" ? (
        <Badge tone="off" testId="server-state">
          {A.servers.draft}
        </Badge>
      ) : (
        <Badge tone="warn" testId="server-state">
          {A.servers.disabled}
        </Badge>
      )}
      {server.isDefault ? <Badge tone="info">{A.servers.default}</Badge> : null}
      {server.kind === "mas" ? (
        <Badge tone="info" testId="server-kind-mas" title={A.servers.kindBadgeMasTitle}>
          {A.servers.kindBadgeMas}
        </Badge>
      ) : null}
      {server.registrationMode === "closed" ? <Badge tone="warn">{A.servers.closed}</Badge> : null}
      {server.lastDiagAt === null ? (
        <Badge tone="warn" testId="server-unchecked" title={A.servers.uncheckedTitle}>
          {A.servers.unchecked}
        </Badge>
      ) : server.lastDiagOk === false ? (
        <Badge tone="bad" testId="server-check-failed" title={A.servers.failedCheckTitle}>
          {A.servers.failedCheck}
        </Badge>
      ) : null}
    </span>
  );
}
