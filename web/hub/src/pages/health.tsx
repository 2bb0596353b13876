import { useEffect, useState } from "preact/hooks";
import { Card, ErrorMessage, Loading, PageHeader } from "../../../common/components/ui.tsx";
import { useStore } from "../../../common/store.ts";
import { useAsync, useInterval } from "../../../common/use-async.ts";
import { type DiagnosticMessage, live, subscribeDiagnostics } from "../api/live.ts";
import { detailedHealth, getHealth, getMetrics, systemInfo } from "../api/system.ts";
import type { BridgeStatus, DetailedHealth, DiagnosticEvent } from "../api/types.ts";
import { JsonView } from "../components/json-view.tsx";
import { isMissingEndpoint, StatusBadge } from "../components/ui.tsx";
import { formatBytes, formatClock, formatDuration, formatTime, humanize } from "../lib/format.ts";
import { hexId, vendorName } from "../lib/vendors.ts";
import { S } from "../strings.ts";
import { ControllerWarnings } from "./controller-limits.tsx";

const MAX_EVENTS = 200;

/** A diagnostic event as the hub sends it; anything else (an older or newer hub) is shown as data. */
function isEvent(value: unknown): value is DiagnosticEvent {
  return typeof value === "object" && value !== null && "message" in value && "time" in value && "type" in value;
}

function eventsOf(message: DiagnosticMessage): unknown[] {
  if (message.type === "diagnostic_event") return [message.data];
  const events = (message.data as { events?: unknown })?.events;
  return Array.isArray(events) ? [...events].reverse() : [message.data];
}

function DiagnosticLine({ event }: { event: unknown }) {
  if (!isEvent(event)) {
    return (
      <li class="log-line">
        <div class="log-msg">
          <JsonView value={event} />
        </div>
      </li>
    );
  }
  return (
    <li class={`log-line level-${event.level}`} data-testid="diagnostic-event">
      <time dateTime={event.time}>{formatClock(event.time)}</time>
      <span class={`level level-${event.level}`}>{S.levels[event.level] ?? event.level}</span>
      <span class="component">{S.health.eventTypes[event.type] ?? humanize(event.type)}</span>
      <span class="log-msg">
        {event.message}
        {event.entityId ? <code class="muted small"> {event.entityId}</code> : null}
      </span>
    </li>
  );
}

function Diagnostics() {
  const { mode } = useStore(live);
  const [events, setEvents] = useState<unknown[]>([]);
  useEffect(
    () =>
      subscribeDiagnostics((message) => {
        const incoming = eventsOf(message);
        setEvents((current) =>
          (message.type === "diagnostic_snapshot" ? incoming : [...incoming, ...current]).slice(0, MAX_EVENTS),
        );
      }),
    [],
  );
  return (
    <Card title={S.health.diagnostics} class="span-2" data-testid="diagnostics">
      <p class="muted">{S.health.diagnosticsText}</p>
      {mode !== "live" ? <p class="notice">{S.health.diagnosticsNeedsLive}</p> : null}
      {events.length === 0 ? (
        <p class="muted">{S.health.diagnosticsEmpty}</p>
      ) : (
        <ul class="log-list" aria-live="polite">
          {events.map((event, i) => (
            <DiagnosticLine key={isEvent(event) ? event.id : `raw-${i}`} event={event} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function BridgeHealth({ bridge }: { bridge: DetailedHealth["bridges"][number] }) {
  return (
    <li class="health-bridge">
      <div class="list-row">
        <div class="row-main">
          <strong>{bridge.name}</strong>
          <span class="muted small">
            {S.bridges.port(bridge.port)} · {S.bridges.devices(bridge.deviceCount)} · {S.health.skipped(bridge.skippedEntities)}
          </span>
        </div>
        <StatusBadge status={bridge.status as BridgeStatus} />
      </div>
      {bridge.statusReason ? <ErrorMessage error={bridge.statusReason} /> : null}
      <p class="small">
        {bridge.fabrics.length === 0
          ? S.detail.noFabrics
          : bridge.fabrics.map((f) => `${vendorName(f.vendorId) ?? f.vendor ?? hexId(f.vendorId)}`).join(", ")}
      </p>
      {bridge.failedEntities.length > 0 ? (
        <ul class="small">
          {bridge.failedEntities.map((f) => (
            <li key={f.entityId}>
              <code>{f.entityId}</code>: <span class="error-text">{f.reason}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {/* Absent from a hub before controller limits. */}
      {bridge.controllerWarnings ? <ControllerWarnings warnings={bridge.controllerWarnings} testId="health-warnings" /> : null}
      {bridge.recovery.lastAttempt ? (
        <p class="muted small">
          {S.health.lastRecovery(
            formatTime(bridge.recovery.lastAttempt.at),
            bridge.recovery.lastAttempt.ok,
            bridge.recovery.attempts.length,
          )}
        </p>
      ) : null}
    </li>
  );
}

function Detailed({ data }: { data: DetailedHealth }) {
  return (
    <>
      {data.recovery ? (
        <p class="muted small">
          {data.recovery.autoRecoveryEnabled
            ? S.health.recoveryOn(Math.round(data.recovery.recoveryIntervalMs / 1000))
            : S.health.recoveryOff}
        </p>
      ) : null}
      {data.bridges.length === 0 ? <p class="muted">{S.dashboard.noBridges}</p> : null}
      <ul class="list">
        {data.bridges.map((bridge) => (
          <BridgeHealth key={bridge.id} bridge={bridge} />
        ))}
      </ul>
    </>
  );
}

export function HealthPage() {
  const health = useAsync((signal) => getHealth(signal), []);
  const metrics = useAsync((signal) => getMetrics(signal), []);
  const system = useAsync((signal) => systemInfo(signal), []);
  const detailed = useAsync((signal) => detailedHealth(signal), []);
  useInterval(() => {
    health.reload(true);
    metrics.reload(true);
    detailed.reload(true);
  }, 10_000);

  const h = health.data;
  const m = metrics.data;
  const sys = system.data;
  return (
    <>
      <PageHeader title={S.health.title} />
      <div class="grid">
        <Card title={S.health.overall}>
          {health.error ? <ErrorMessage error={health.error} onRetry={() => health.reload()} /> : null}
          {!h && !health.error ? <Loading /> : null}
          {h ? (
            <>
              <p class={`health health-${h.status}`} data-testid="health-status">
                <span class="dot" aria-hidden="true" />
                {S.health[h.status]}
              </p>
              <dl class="facts">
                <div>
                  <dt>{S.health.version}</dt>
                  <dd>{h.version}</dd>
                </div>
                <div>
                  <dt>{S.health.uptime}</dt>
                  <dd>{formatDuration(h.uptime)}</dd>
                </div>
                <div>
                  <dt>{S.dashboard.homeAssistant}</dt>
                  <dd>{h.services.homeAssistant.connected ? S.dashboard.connected : S.dashboard.disconnected}</dd>
                </div>
                <div>
                  <dt>{S.dashboard.bridges}</dt>
                  <dd>
                    {h.services.bridges.running}/{h.services.bridges.total} {S.status.running.toLowerCase()}
                    {h.services.bridges.failed > 0 ? `, ${h.services.bridges.failed} ${S.status.failed.toLowerCase()}` : ""}
                  </dd>
                </div>
              </dl>
              {h.services.homeAssistant.error ? <ErrorMessage error={h.services.homeAssistant.error} /> : null}
            </>
          ) : null}
        </Card>
        <Card title={S.health.memory}>
          {metrics.error ? <ErrorMessage error={metrics.error} onRetry={() => metrics.reload()} /> : null}
          {!m && !metrics.error ? <Loading /> : null}
          {m ? (
            <dl class="facts">
              <div>
                <dt>{S.health.rss}</dt>
                <dd>{formatBytes(m.memory.rss)}</dd>
              </div>
              <div>
                <dt>{S.health.heap}</dt>
                <dd>
                  {formatBytes(m.memory.heapUsed)} / {formatBytes(m.memory.heapTotal)}
                </dd>
              </div>
            </dl>
          ) : null}
        </Card>
        <Card title={S.health.activity} data-testid="ha-activity">
          {metrics.error ? <ErrorMessage error={metrics.error} onRetry={() => metrics.reload()} /> : null}
          {!m && !metrics.error ? <Loading /> : null}
          {m ? (
            <dl class="facts">
              <div>
                <dt>{S.health.haEvents}</dt>
                <dd>{m.homeAssistant.stateEvents}</dd>
              </div>
              <div>
                <dt>{S.health.serviceCalls}</dt>
                <dd>{m.homeAssistant.serviceCalls}</dd>
              </div>
              <div>
                <dt>{S.health.serviceFailures}</dt>
                <dd>{m.homeAssistant.serviceCallFailures}</dd>
              </div>
              <div>
                <dt>{S.health.reconnects}</dt>
                <dd>{m.homeAssistant.reconnects}</dd>
              </div>
            </dl>
          ) : null}
          {m ? <p class="hint">{S.health.activityText}</p> : null}
        </Card>
        <Card title={S.health.system}>
          {system.error ? <ErrorMessage error={system.error} onRetry={() => system.reload()} /> : null}
          {!sys && !system.error ? <Loading /> : null}
          {sys ? (
            <>
              <dl class="facts">
                <div>
                  <dt>{S.health.host}</dt>
                  <dd>{sys.hostname}</dd>
                </div>
                <div>
                  <dt>{S.health.platform}</dt>
                  <dd>
                    {sys.platform} {sys.arch}
                  </dd>
                </div>
                <div>
                  <dt>{S.health.node}</dt>
                  <dd>{sys.nodeVersion}</dd>
                </div>
                <div>
                  <dt>{S.health.storage}</dt>
                  <dd>{S.health.storageUsed(formatBytes(sys.storage.usedBytes), formatBytes(sys.storage.freeBytes))}</dd>
                </div>
              </dl>
              <h3>{S.health.network}</h3>
              <p class="muted">{S.health.mdnsInterface(sys.network.mdnsInterface)}</p>
              {sys.network.mdnsInterface && !sys.network.mdnsInterfaceFound ? (
                <ErrorMessage error={S.health.mdnsMissing(sys.network.mdnsInterface)} />
              ) : null}
              <ul class="list">
                {sys.network.interfaces.map((iface) => (
                  <li key={iface.name} class="list-row">
                    <div class="row-main">
                      <strong>{iface.name}</strong>
                      <span class="muted small">
                        {iface.addresses.map((a) => `${a.address}${a.advertised ? ` (${S.health.advertised})` : ""}`).join(", ")}
                      </span>
                    </div>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </Card>
        <Card title={S.health.detailed} data-testid="detailed-health">
          {detailed.error ? (
            <ErrorMessage
              error={isMissingEndpoint(detailed.error) ? S.common.notAvailable(S.health.detailedFeature) : detailed.error}
              onRetry={() => detailed.reload()}
            />
          ) : null}
          {!detailed.data && !detailed.error ? <Loading /> : null}
          {detailed.data ? <Detailed data={detailed.data} /> : null}
        </Card>
        <Diagnostics />
      </div>
    </>
  );
}
