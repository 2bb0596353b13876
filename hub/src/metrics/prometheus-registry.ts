import { Counter, collectDefaultMetrics, Gauge, Registry } from "prom-client";
import { type MemorySnapshot, type MetricsSources, memorySnapshot } from "./metrics-sources.ts";

const PREFIX = "hub_";
const BRIDGE_LABELS = ["bridge_id", "bridge_name"] as const;

/**
 * Builds the hub's own Prometheus registry (never prom-client's global one): Node's default process metrics with
 * the `hub_` prefix, plus the hub's gauges and counters. Every hub value is read from `sources` in a collect
 * callback, i.e. at scrape time. Build it once per process: the default metrics install a GC observer and an
 * event-loop delay monitor that live as long as the process.
 */
export function createPrometheusRegistry(sources: MetricsSources): Registry {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry, prefix: PREFIX });

  const gauge = (name: string, help: string, read: () => number) => {
    const metric: Gauge = new Gauge({ name: PREFIX + name, help, registers, collect: () => metric.set(read()) });
  };
  // Totals kept elsewhere (the HA client): a prom-client Counter can only be incremented, so restate it per scrape.
  const counter = (name: string, help: string, read: () => number) => {
    const metric: Counter = new Counter({
      name: PREFIX + name,
      help,
      registers,
      collect: () => {
        metric.reset();
        metric.inc(read());
      },
    });
  };
  // Per-bridge series are rebuilt at each scrape, so a deleted bridge's series disappears.
  const perBridge = (name: string, help: string, read: (bridge: ReturnType<MetricsSources["bridges"]>[number]) => number) => {
    const metric: Gauge<(typeof BRIDGE_LABELS)[number]> = new Gauge({
      name: PREFIX + name,
      help,
      labelNames: BRIDGE_LABELS,
      registers,
      collect: () => {
        metric.reset();
        for (const bridge of sources.bridges()) metric.set({ bridge_id: bridge.id, bridge_name: bridge.name }, read(bridge));
      },
    });
  };
  const perBridgeCounter = (
    name: string,
    help: string,
    read: (bridge: ReturnType<MetricsSources["bridges"]>[number]) => number,
  ) => {
    const metric: Counter<(typeof BRIDGE_LABELS)[number]> = new Counter({
      name: PREFIX + name,
      help,
      labelNames: BRIDGE_LABELS,
      registers,
      collect: () => {
        metric.reset();
        for (const bridge of sources.bridges()) metric.inc({ bridge_id: bridge.id, bridge_name: bridge.name }, read(bridge));
      },
    });
  };
  const memory = (name: string, key: keyof MemorySnapshot, help: string) => gauge(name, help, () => memorySnapshot()[key]);

  gauge("uptime_seconds", "Application uptime in seconds.", () => sources.uptimeSeconds());
  // Named `hub_bridges_total` until 0.1.0: a `_total` suffix belongs to counters (Prometheus naming), this is a gauge.
  gauge("bridges", "Number of bridges, whatever their state.", () => sources.bridges().length);
  perBridge("bridge_status", "1 when the bridge is running, 0 otherwise.", (bridge) => (bridge.status === "running" ? 1 : 0));
  perBridge("bridge_devices", "Matter devices exposed by the bridge.", (bridge) => bridge.deviceCount);
  perBridge("bridge_fabrics", "Controller fabrics the bridge is commissioned into.", (bridge) => bridge.fabricCount);
  perBridgeCounter(
    "bridge_reconciliations_total",
    "Reconciliation passes for Home Assistant and mapping changes (a burst of registry changes is one).",
    (bridge) => bridge.reconciliations,
  );
  gauge("home_assistant_connected", "1 when connected to Home Assistant, 0 otherwise.", () =>
    sources.homeAssistant().connected ? 1 : 0,
  );
  counter("home_assistant_reconnects_total", "Reconnections to Home Assistant.", () => sources.homeAssistant().reconnects);
  counter(
    "home_assistant_state_events_total",
    "State-changed events received from Home Assistant.",
    () => sources.homeAssistant().stateEvents,
  );
  counter("service_calls_total", "Service calls made to Home Assistant.", () => sources.homeAssistant().serviceCalls);
  counter(
    "service_call_failures_total",
    "Service calls to Home Assistant that failed.",
    () => sources.homeAssistant().serviceCallFailures,
  );
  counter(
    "home_assistant_registry_events_total",
    "Registry events (entity, device, area, label) received from Home Assistant.",
    () => sources.homeAssistant().registryEvents,
  );
  counter(
    "home_assistant_registry_reads_total",
    "Registry commands sent to read registry changes back (one per burst and registry).",
    () => sources.homeAssistant().registryReads,
  );
  memory("memory_rss_bytes", "rss", "Resident set size in bytes.");
  memory("memory_heap_used_bytes", "heapUsed", "V8 heap used in bytes.");
  memory("memory_heap_total_bytes", "heapTotal", "V8 heap allocated in bytes.");
  memory("memory_external_bytes", "external", "Memory of C++ objects bound to JavaScript objects, in bytes.");

  if (sources.logCounts) {
    const logCounts = sources.logCounts.bind(sources);
    const metric: Gauge<"level"> = new Gauge({
      name: `${PREFIX}log_entries`,
      help: "Log lines held in the in-memory log buffer, per level.",
      labelNames: ["level"],
      registers,
      collect: () => {
        for (const [level, count] of Object.entries(logCounts())) metric.set({ level }, count);
      },
    });
  }
  return registry;
}
