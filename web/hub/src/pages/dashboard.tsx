import { Card, Empty, ErrorMessage, Loading, PageHeader } from "../../../common/components/ui.tsx";
import { Link } from "../../../common/hash-router.tsx";
import { useStore } from "../../../common/store.ts";
import { useAsync, useInterval } from "../../../common/use-async.ts";
import { haStats } from "../api/home-assistant.ts";
import { live } from "../api/live.ts";
import { getHealth, listLogs } from "../api/system.ts";
import type { Bridge, BridgeStatus } from "../api/types.ts";
import { StatusBadge } from "../components/ui.tsx";
import { formatClock, formatDuration } from "../lib/format.ts";
import { S } from "../strings.ts";

const STATUSES: BridgeStatus[] = ["running", "starting", "stopped", "failed"];

function Stat({ label, value, testId }: { label: string; value: string | number; testId?: string }) {
  return (
    <div class="stat" data-testid={testId}>
      <span class="stat-value">{value}</span>
      <span class="stat-label">{label}</span>
    </div>
  );
}

function BridgesSummary({ bridges }: { bridges: Bridge[] }) {
  if (bridges.length === 0) {
    return (
      <Empty title={S.dashboard.noBridges}>
        <p>{S.dashboard.noBridgesText}</p>
        <Link class="btn btn-primary" href="/bridges/new">
          {S.dashboard.createFirst}
        </Link>
      </Empty>
    );
  }
  const counts = Object.fromEntries(STATUSES.map((s) => [s, bridges.filter((b) => b.status === s).length]));
  const devices = bridges.reduce((sum, b) => sum + b.deviceCount, 0);
  const fabrics = bridges.reduce((sum, b) => sum + b.commissioning.fabrics.length, 0);
  return (
    <>
      <div class="stats">
        {STATUSES.filter((s) => counts[s] || s === "running").map((s) => (
          <Stat key={s} label={S.status[s]} value={counts[s] ?? 0} testId={`bridges-${s}`} />
        ))}
        <Stat label={S.dashboard.exposedDevices} value={devices} testId="devices-count" />
        <Stat label={S.dashboard.fabrics} value={fabrics} testId="fabrics-count" />
      </div>
      <ul class="list">
        {bridges.map((b) => (
          <li key={b.id} class="list-row">
            <Link href={`/bridges/${b.id}`} class="row-main">
              <strong>{b.name}</strong>
              <span class="muted">
                {S.bridges.devices(b.deviceCount)} · {S.bridges.fabrics(b.commissioning.fabrics.length)}
              </span>
            </Link>
            <StatusBadge status={b.status} />
          </li>
        ))}
      </ul>
    </>
  );
}

export function DashboardPage() {
  const { bridges, error: bridgesError } = useStore(live);
  const stats = useAsync((signal) => haStats(signal), []);
  const health = useAsync((signal) => getHealth(signal), []);
  const problems = useAsync((signal) => listLogs({ levels: ["warn", "error", "fatal"], search: "", limit: 8 }, signal), []);
  useInterval(() => {
    stats.reload(true);
    problems.reload(true);
    health.reload(true);
  }, 10_000);
  const failed = (bridges ?? []).filter((b) => b.status === "failed");

  return (
    <>
      <PageHeader title={S.dashboard.title}>
        {health.data ? (
          <span class="muted">{S.dashboard.hubVersion(health.data.version, formatDuration(health.data.uptime))}</span>
        ) : null}
      </PageHeader>
      {health.data?.demo ? (
        <p class="notice" data-testid="demo-notice">
          {S.dashboard.demoNotice}
        </p>
      ) : null}
      <div class="grid">
        <Card title={S.dashboard.homeAssistant}>
          {stats.error ? <ErrorMessage error={stats.error} onRetry={() => stats.reload()} /> : null}
          {!stats.data && !stats.error ? <Loading /> : null}
          {stats.data ? (
            <>
              <p class={`conn ${stats.data.connected ? "conn-on" : "conn-off"}`} data-testid="ha-connection">
                <span class="dot" aria-hidden="true" />
                {stats.data.connected ? S.dashboard.connected : S.dashboard.disconnected}
                {stats.data.connection.haVersion ? (
                  <span class="muted"> · {S.dashboard.haVersion(stats.data.connection.haVersion)}</span>
                ) : null}
              </p>
              {stats.data.connection.error ? <ErrorMessage error={stats.data.connection.error} /> : null}
              <div class="stats">
                <Stat label={S.dashboard.entities} value={stats.data.entities.total} testId="entities-count" />
                <Stat label={S.dashboard.devices} value={stats.data.devices} />
                <Stat label={S.dashboard.unavailable} value={stats.data.entities.unavailable} />
              </div>
            </>
          ) : null}
        </Card>
        <Card title={S.dashboard.bridges} actions={<Link href="/bridges">{S.nav.bridges}</Link>}>
          {bridgesError && !bridges ? <ErrorMessage error={bridgesError} /> : null}
          {bridges ? <BridgesSummary bridges={bridges} /> : bridgesError ? null : <Loading />}
        </Card>
        <Card title={S.dashboard.problems} actions={<Link href="/logs">{S.dashboard.allLogs}</Link>} class="span-2">
          {failed.map((b) => (
            <ErrorMessage key={b.id} error={S.dashboard.bridgeFailed(b.name, b.statusReason ?? "?")} />
          ))}
          {problems.error ? <ErrorMessage error={problems.error} onRetry={() => problems.reload()} /> : null}
          {problems.data && problems.data.logs.length === 0 && failed.length === 0 ? (
            <p class="muted">{S.dashboard.noProblems}</p>
          ) : null}
          {problems.data && problems.data.logs.length > 0 ? (
            <ul class="log-list compact">
              {problems.data.logs.map((entry) => (
                <li key={entry.id} class={`log-line level-${entry.level}`}>
                  <time dateTime={entry.time}>{formatClock(entry.time)}</time>
                  <span class={`level level-${entry.level}`}>{S.levels[entry.level]}</span>
                  <span class="log-msg">{entry.msg}</span>
                </li>
              ))}
            </ul>
          ) : null}
        </Card>
      </div>
    </>
  );
}
