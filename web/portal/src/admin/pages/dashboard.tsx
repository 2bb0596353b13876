import type { ComponentChildren } from "preact";
import { Card, Empty, ErrorMessage, Loading, PageHeader } from "../../../../common/components/ui.tsx";
import { Link } from "../../../../common/hash-router.tsx";
import { useAsync } from "../../../../common/use-async.ts";
import { A } from "../../strings/admin.ts";
import { getStats } from "../api.ts";
import { Badge, Facts } from "../components/ui.tsx";
import { formatDate } from "../format.ts";
import { useSelectedServer } from "../servers-store.ts";
import { ServerStatus } from "./server-status.tsx";

/** Needs a server: shows why not (loading, failed, none yet) or renders `children` with the selected server. */
export function WithServer({ title, children }: { title?: string; children: (serverId: string) => ComponentChildren }) {
  const { server, state } = useSelectedServer();
  const header = title ? <PageHeader title={title} /> : null;
  if (state.error && !state.list) {
    return (
      <>
        {header}
        <ErrorMessage error={state.error} title={A.servers.loadFailed} />
      </>
    );
  }
  if (!state.list) {
    return (
      <>
        {header}
        <Loading />
      </>
    );
  }
  if (!server) {
    return (
      <>
        {header}
        <Empty title={A.servers.none}>
          <p>{A.servers.noneText}</p>
          <Link href="/servers/new" class="btn btn-primary">
            {A.servers.add}
          </Link>
        </Empty>
      </>
    );
  }
  return <>{children(server.id)}</>;
}

function Stats({ serverId }: { serverId: string }) {
  const stats = useAsync(() => getStats(serverId), [serverId]);
  if (stats.error) return <ErrorMessage error={stats.error} title={A.dashboard.statsFailed} onRetry={() => stats.reload()} />;
  if (!stats.data) return <Loading />;
  const s = stats.data;
  const items: [string, number, string][] = [
    [A.dashboard.recentRegistrations, s.recentRegistrations, "recentRegistrations"],
    [A.dashboard.totalTokens, s.totalTokens, "totalTokens"],
    [A.dashboard.validTokens, s.validTokens, "validTokens"],
    [A.dashboard.expiredTokens, s.expiredTokens, "expiredTokens"],
    [A.dashboard.exhaustedTokens, s.exhaustedTokens, "exhaustedTokens"],
    [A.dashboard.disabledTokens, s.disabledTokens, "disabledTokens"],
  ];
  return (
    <ul class="stats" data-testid="stats">
      {items.map(([label, value, key]) => (
        <li class="stat" key={key} data-stat={key}>
          <span class="stat-value">{value}</span>
          <span class="stat-label">{label}</span>
        </li>
      ))}
    </ul>
  );
}

export function DashboardPage() {
  const { server } = useSelectedServer();
  return (
    <>
      <PageHeader title={A.dashboard.title} />
      <WithServer>
        {(serverId) => (
          <>
            <Card title={A.dashboard.statsFor(server?.name ?? "")}>
              <Stats serverId={serverId} />
              <p class="hint">{A.dashboard.recentHint}</p>
            </Card>
            {server ? (
              <div class="grid">
                <Card
                  title={A.dashboard.server}
                  actions={
                    <Link href={`/servers/${server.id}`} class="btn btn-small">
                      {A.common.open}
                    </Link>
                  }
                >
                  <Facts
                    items={[
                      [A.servers.status, <ServerStatus server={server} />],
                      [A.servers.serverName, <code>{server.serverName}</code>],
                      [A.servers.publicUrl, server.publicUrl],
                      [
                        A.servers.lastDiagnostics,
                        server.lastDiagAt ? (
                          <>
                            {server.lastDiagOk ? (
                              <Badge tone="ok">{A.common.pass}</Badge>
                            ) : (
                              <Badge tone="bad">{A.common.fail}</Badge>
                            )}{" "}
                            {formatDate(server.lastDiagAt)}
                          </>
                        ) : (
                          A.servers.neverChecked
                        ),
                      ],
                    ]}
                  />
                </Card>
                <Card title={A.dashboard.shortcuts}>
                  <div class="button-row">
                    <Link href="/tokens?new=1" class="btn btn-primary">
                      {A.tokens.create}
                    </Link>
                    <Link href="/branding" class="btn">
                      {A.nav.branding}
                    </Link>
                    <Link href="/audit" class="btn">
                      {A.nav.audit}
                    </Link>
                  </div>
                </Card>
              </div>
            ) : null}
          </>
        )}
      </WithServer>
    </>
  );
}
