import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { Card, ErrorMessage, Loading, PageHeader } from "../../../common/components/ui.tsx";
import { Link } from "../../../common/hash-router.tsx";
import { useStore } from "../../../common/store.ts";
import { useAsync, useDebounced, useInterval } from "../../../common/use-async.ts";
import { inspectEndpoint } from "../api/bridges.ts";
import { live, watchEndpoint } from "../api/live.ts";
import type { EndpointInspection, InspectedAttribute, InspectedCluster } from "../api/types.ts";
import { formatClock } from "../lib/format.ts";
import { applyChanges, attributeKey, changedKeys, isGlobal, labelOf } from "../lib/inspection.ts";
import { hexId } from "../lib/vendors.ts";
import { S } from "../strings.ts";

/** How long a changed value stays marked. */
const RECENT_MS = 30_000;

const hex = (n: number, digits = 4) => `0x${n.toString(16).toUpperCase().padStart(digits, "0")}`;

/** When each attribute last read differently (by attributeKey), kept for {@link RECENT_MS}. */
function useChangeMarks(inspection: EndpointInspection | undefined): ReadonlyMap<string, number> {
  const previous = useRef<EndpointInspection | undefined>(undefined);
  const [marks, setMarks] = useState<ReadonlyMap<string, number>>(new Map());
  useEffect(() => {
    if (!inspection) return;
    const changed = changedKeys(previous.current, inspection);
    previous.current = inspection;
    if (changed.length === 0) return;
    const now = Date.now();
    setMarks((old) => new Map([...old, ...changed.map((key) => [key, now] as const)]));
  }, [inspection]);
  // Unmarks what is no longer recent (runs only while something is marked).
  useInterval(
    () => {
      const now = Date.now();
      setMarks((old) => new Map([...old].filter(([, at]) => now - at < RECENT_MS)));
    },
    marks.size > 0 ? 1000 : null,
  );
  return marks;
}

function AttributeRow({ attribute, changedAt }: { attribute: InspectedAttribute; changedAt: number | undefined }) {
  return (
    <div
      class={`attr${changedAt ? " changed" : ""}`}
      data-testid="attribute"
      data-name={attribute.name}
      data-changed={changedAt ? "yes" : undefined}
    >
      <dt>
        <span class="attr-name">{attribute.name}</span>
        <span class="muted small">
          {hex(attribute.id)} · {attribute.type}
        </span>
      </dt>
      <dd>
        {attribute.hidden ? (
          <span class="muted attr-hidden" title={attribute.hidden}>
            {S.inspector.hidden}: {attribute.hidden}
          </span>
        ) : (
          <code class={`attr-value${attribute.value === null ? " attr-null" : ""}`} data-testid="attribute-value">
            {attribute.text}
          </code>
        )}
        {attribute.truncated ? <span class="pill">{S.inspector.truncated}</span> : null}
        {changedAt ? (
          <span class="pill pill-ok" data-testid="changed-mark">
            {S.inspector.changed(formatClock(new Date(changedAt).toISOString()))}
          </span>
        ) : null}
      </dd>
    </div>
  );
}

function ClusterCard({ cluster, marks }: { cluster: InspectedCluster; marks: ReadonlyMap<string, number> }) {
  const own = cluster.attributes.filter((a) => !isGlobal(a));
  const globals = cluster.attributes.filter(isGlobal);
  const row = (attribute: InspectedAttribute) => (
    <AttributeRow key={attribute.id} attribute={attribute} changedAt={marks.get(attributeKey(cluster.id, attribute.id))} />
  );
  return (
    <Card
      class="cluster"
      data-testid="cluster"
      data-cluster={cluster.name}
      title={
        <>
          {cluster.name} <code class="muted">{hex(cluster.id)}</code>
        </>
      }
    >
      <p class="muted small cluster-meta">
        {cluster.revision !== null ? S.inspector.revision(cluster.revision) : null}
        {" · "}
        {cluster.features.length > 0 ? S.inspector.features(cluster.features.join(", ")) : S.inspector.noFeatures}
        {cluster.featureMap !== null ? ` (${hex(cluster.featureMap, 1)})` : null}
      </p>
      {own.length > 0 ? <dl class="attrs">{own.map(row)}</dl> : null}
      {globals.length > 0 ? (
        <details class="globals">
          <summary>{S.inspector.globals(globals.length)}</summary>
          <dl class="attrs">{globals.map(row)}</dl>
        </details>
      ) : null}
    </Card>
  );
}

/** The facts about the endpoint: number, entity, device types, the endpoints below it, when it was read. */
function Summary({ inspection, bridgeId }: { inspection: EndpointInspection; bridgeId: string }) {
  return (
    <dl class="facts inspector-facts" data-testid="inspector-summary">
      <div>
        <dt>{S.inspector.endpoint}</dt>
        <dd data-testid="endpoint-number">{inspection.endpointNumber}</dd>
      </div>
      {inspection.entityId ? (
        <div>
          <dt>{S.inspector.entity}</dt>
          <dd>
            <code>{inspection.entityId}</code>
          </dd>
        </div>
      ) : null}
      <div class="wide">
        <dt>{S.inspector.deviceTypes}</dt>
        <dd data-testid="device-types">
          {inspection.deviceTypes.map((t) => S.inspector.deviceType(t.name, hexId(t.id), t.revision)).join(", ") ||
            S.inspector.none}
        </dd>
      </div>
      {inspection.parts.length > 0 ? (
        <div class="wide">
          <dt>{S.inspector.parts}</dt>
          <dd class="parts">
            {inspection.parts.map((n) => (
              <Link key={n} href={`/bridges/${bridgeId}/endpoints/${n}`}>
                {n}
              </Link>
            ))}
          </dd>
        </div>
      ) : null}
      <div>
        <dt>{S.inspector.readAt}</dt>
        <dd>{formatClock(inspection.readAt)}</dd>
      </div>
    </dl>
  );
}

/**
 * The device inspector (`#/bridges/<id>/endpoints/<n>`): one endpoint of a running bridge as controllers read it,
 * grouped by cluster, with the values that changed recently marked. Live over the WebSocket while the page is open
 * (`subscribe_endpoint`); without it, re-read every few seconds.
 */
export function DeviceInspectorPage({ bridgeId, endpointNumber }: { bridgeId: string; endpointNumber: number }) {
  const { bridges, mode } = useStore(live);
  const bridge = bridges?.find((b) => b.id === bridgeId);
  const read = useAsync((signal) => inspectEndpoint(bridgeId, endpointNumber, signal), [bridgeId, endpointNumber]);
  const [unavailable, setUnavailable] = useState<string | null>(null);
  const [query, setQuery] = useState("");
  const needle = useDebounced(query.trim().toLowerCase(), 150);

  useEffect(
    () =>
      watchEndpoint({
        bridgeId,
        endpointNumber,
        snapshot: (data, reason) => {
          setUnavailable(data ? null : reason);
          if (data) read.setData(() => data);
        },
        update: (changes) => read.setData((previous) => (previous ? applyChanges(previous, changes) : (previous as never))),
      }),
    [bridgeId, endpointNumber],
  );
  useInterval(() => (mode === "live" ? undefined : read.reload(true)), 3000);
  const marks = useChangeMarks(read.data);

  const clusters = useMemo(() => {
    const all = read.data?.clusters ?? [];
    const matches = (a: InspectedAttribute) =>
      !needle || a.name.toLowerCase().includes(needle) || a.text.toLowerCase().includes(needle);
    return all
      .map((cluster) =>
        !needle || cluster.name.toLowerCase().includes(needle)
          ? cluster
          : { ...cluster, attributes: cluster.attributes.filter(matches) },
      )
      .filter((cluster) => !needle || cluster.name.toLowerCase().includes(needle) || cluster.attributes.length > 0);
  }, [read.data, needle]);
  const servers = clusters.filter((c) => c.side === "server");
  const clients = clusters.filter((c) => c.side === "client");

  const name = read.data ? (labelOf(read.data) ?? read.data.entityId) : null;
  const stopped = bridge && bridge.status !== "running";
  return (
    <>
      <p class="crumb">
        <Link href={`/bridges/${bridgeId}`}>← {S.inspector.back(bridge?.name ?? bridgeId)}</Link>
      </p>
      <PageHeader title={name ? `${name} · ${S.inspector.title(endpointNumber)}` : S.inspector.title(endpointNumber)} />
      <p class="muted">{S.inspector.intro}</p>
      {unavailable || (stopped && !read.data) ? (
        <p class="notice" role="status" data-testid="inspector-unavailable">
          <strong>{S.inspector.unavailable}: </strong>
          {unavailable ?? S.inspector.notRunning}
        </p>
      ) : null}
      {read.error && !read.data ? <ErrorMessage error={read.error} onRetry={() => read.reload()} /> : null}
      {!read.data && !read.error ? <Loading /> : null}
      {read.data ? (
        <div class={`inspector${unavailable ? " stale" : ""}`} data-testid="inspector">
          <Summary inspection={read.data} bridgeId={bridgeId} />
          <div class="toolbar">
            <input
              type="search"
              aria-label={S.inspector.filter}
              placeholder={S.inspector.filter}
              value={query}
              onInput={(e) => setQuery(e.currentTarget.value)}
            />
            <span class="muted small" data-testid="inspector-live" data-live={mode === "live" ? "yes" : "no"}>
              {mode === "live" ? S.inspector.live : S.inspector.polled}. {S.inspector.changedLegend}
            </span>
          </div>
          {servers.length === 0 && needle ? <p class="muted">{S.inspector.noMatch}</p> : null}
          {servers.map((cluster) => (
            <ClusterCard key={cluster.id} cluster={cluster} marks={marks} />
          ))}
          {clients.length > 0 ? (
            <Card title={S.inspector.clients} data-testid="client-clusters">
              <p class="muted small">{S.inspector.clientsText}</p>
              <ul class="client-list">
                {clients.map((c) => (
                  <li key={c.id}>
                    {c.name} <code class="muted">{hex(c.id)}</code>
                  </li>
                ))}
              </ul>
            </Card>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
