import { Card, Empty, ErrorMessage, Loading, PageHeader } from "../../../../common/components/ui.tsx";
import { Link } from "../../../../common/hash-router.tsx";
import { useStore } from "../../../../common/store.ts";
import { A } from "../../strings/admin.ts";
import { formatDate } from "../format.ts";
import { loadServers, servers } from "../servers-store.ts";
import { ServerStatus } from "./server-status.tsx";

export function ServersPage() {
  const state = useStore(servers);
  return (
    <>
      <PageHeader title={A.servers.title}>
        <Link href="/servers/new" class="btn btn-primary">
          {A.servers.add}
        </Link>
      </PageHeader>
      {state.error ? <ErrorMessage error={state.error} title={A.servers.loadFailed} onRetry={() => void loadServers()} /> : null}
      {!state.list ? (
        state.error ? null : (
          <Loading />
        )
      ) : state.list.length === 0 ? (
        <Empty title={A.servers.none}>
          <p>{A.servers.noneText}</p>
        </Empty>
      ) : (
        <Card class="flush">
          <table class="table responsive" data-testid="servers-table">
            <thead>
              <tr>
                <th scope="col">{A.servers.name}</th>
                <th scope="col">{A.servers.serverName}</th>
                <th scope="col">{A.servers.status}</th>
                <th scope="col">{A.servers.lastDiagnostics}</th>
              </tr>
            </thead>
            <tbody>
              {state.list.map((server) => (
                <tr key={server.id} data-server={server.slug}>
                  <td>
                    <Link href={`/servers/${server.id}`}>
                      <strong>{server.name}</strong>
                    </Link>
                    <span class="muted small block">/{server.slug}</span>
                  </td>
                  <td data-label={A.servers.serverName}>
                    <code>{server.serverName}</code>
                  </td>
                  <td data-label={A.servers.status}>
                    <ServerStatus server={server} />
                  </td>
                  <td data-label={A.servers.lastDiagnostics}>
                    {server.lastDiagAt
                      ? `${server.lastDiagOk ? A.common.pass : A.common.fail} · ${formatDate(server.lastDiagAt)}`
                      : A.servers.neverChecked}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
    </>
  );
}
