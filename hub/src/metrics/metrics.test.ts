import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { describe, it } from "node:test";
import { Hono } from "hono";
import { metricsRoutes } from "./metrics.routes.ts";
import type { BridgeMetrics, MetricsSources } from "./metrics-sources.ts";

/** One metric family as parse-prometheus-text-format returns it (the package ships no types). */
interface ParsedFamily {
  name: string;
  help: string;
  type: string;
  metrics: { value?: string; labels?: Record<string, string> }[];
}
// An independent parser of the text format (ported from the Python client), so prom-client does not check itself.
const parsePrometheus = createRequire(import.meta.url)("parse-prometheus-text-format") as (text: string) => ParsedFamily[];

const TRICKY_NAME = 'Living "room" \\ lamps\nsecond line';

function fakeSources(): MetricsSources & { bridgeList: BridgeMetrics[] } {
  const bridgeList: BridgeMetrics[] = [
    { id: "b1", name: "Kitchen", status: "running", deviceCount: 12, fabricCount: 2, reconciliations: 7 },
    { id: "b2", name: TRICKY_NAME, status: "failed", deviceCount: 3, fabricCount: 0, reconciliations: 0 },
    { id: "b3", name: "Garage", status: "stopped", deviceCount: 0, fabricCount: 1, reconciliations: 0 },
  ];
  return {
    bridgeList,
    uptimeSeconds: () => 123.4,
    bridges: () => bridgeList,
    homeAssistant: () => ({
      connected: true,
      reconnects: 2,
      stateEvents: 345,
      serviceCalls: 17,
      serviceCallFailures: 1,
      registryEvents: 500,
      registryReads: 2,
    }),
    logCounts: () => ({ trace: 0, debug: 4, info: 10, warn: 1, error: 0, fatal: 0 }),
  };
}

function appFor(sources: MetricsSources) {
  return new Hono().route("/api/metrics", metricsRoutes(sources));
}

describe("GET /api/metrics", () => {
  it("returns uptime, memory, bridge totals, the HA link and a timestamp", async () => {
    const response = await appFor(fakeSources()).request("/api/metrics");
    assert.equal(response.status, 200);
    const body = (await response.json()) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body).sort(), ["bridges", "homeAssistant", "logs", "memory", "timestamp", "uptime"]);
    assert.equal(body.uptime, 123);
    const memory = body.memory as Record<string, number>;
    for (const key of ["rss", "heapUsed", "heapTotal", "external"]) assert.ok((memory[key] ?? 0) > 0, key);
    assert.deepEqual(body.bridges, { total: 3, starting: 0, running: 1, stopped: 1, failed: 1, devices: 15, fabrics: 3 });
    assert.deepEqual(body.homeAssistant, {
      connected: true,
      reconnects: 2,
      stateEvents: 345,
      serviceCalls: 17,
      serviceCallFailures: 1,
      registryEvents: 500,
      registryReads: 2,
    });
    assert.ok(!Number.isNaN(Date.parse(body.timestamp as string)));
  });
});

describe("GET /api/metrics/prometheus", () => {
  it("serves the text format that an independent parser reads, with escaped label values", async () => {
    const sources = fakeSources();
    const app = appFor(sources);
    const response = await app.request("/api/metrics/prometheus");
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
    const text = await response.text();
    const families = new Map(parsePrometheus(text).map((family) => [family.name, family]));
    const value = (name: string, labels?: Record<string, string>) => {
      const family = families.get(name);
      assert.ok(family, `${name} missing`);
      const sample = family.metrics.find((m) => !labels || Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
      assert.ok(sample, `${name}${JSON.stringify(labels)} missing`);
      return Number(sample.value);
    };

    assert.equal(families.get("hub_uptime_seconds")?.type, "GAUGE");
    assert.equal(value("hub_uptime_seconds"), 123.4);
    assert.equal(families.get("hub_bridges")?.type, "GAUGE");
    assert.equal(value("hub_bridges"), 3);
    assert.equal(families.get("hub_bridges_total"), undefined, "renamed: a gauge does not end in _total");
    assert.equal(families.get("hub_bridge_status")?.type, "GAUGE");
    assert.equal(value("hub_bridge_status", { bridge_id: "b1", bridge_name: "Kitchen" }), 1);
    assert.equal(value("hub_bridge_status", { bridge_id: "b2", bridge_name: TRICKY_NAME }), 0);
    assert.equal(value("hub_bridge_status", { bridge_id: "b3" }), 0);
    assert.equal(value("hub_bridge_devices", { bridge_id: "b1" }), 12);
    assert.equal(value("hub_bridge_fabrics", { bridge_id: "b1" }), 2);
    assert.equal(families.get("hub_bridge_reconciliations_total")?.type, "COUNTER");
    assert.equal(value("hub_bridge_reconciliations_total", { bridge_id: "b1" }), 7);
    assert.equal(value("hub_home_assistant_connected"), 1);
    assert.equal(families.get("hub_home_assistant_reconnects_total")?.type, "COUNTER");
    assert.equal(value("hub_home_assistant_reconnects_total"), 2);
    assert.equal(value("hub_home_assistant_state_events_total"), 345);
    assert.equal(value("hub_service_calls_total"), 17);
    assert.equal(value("hub_service_call_failures_total"), 1);
    assert.equal(value("hub_home_assistant_registry_events_total"), 500);
    assert.equal(value("hub_home_assistant_registry_reads_total"), 2);
    assert.equal(value("hub_log_entries", { level: "info" }), 10);
    for (const name of ["rss", "heap_used", "heap_total", "external"]) assert.ok(value(`hub_memory_${name}_bytes`) > 0, name);
    // Node's default metrics, in this registry and with the hub prefix.
    assert.ok(value("hub_process_cpu_user_seconds_total") >= 0);
    assert.ok(value("hub_nodejs_heap_size_used_bytes") > 0);
    // The escaping itself, as written on the wire.
    assert.ok(text.includes('bridge_name="Living \\"room\\" \\\\ lamps\\nsecond line"'));

    // Values are read at scrape time: a removed bridge disappears, a changed one follows.
    sources.bridgeList.splice(1, 2);
    sources.bridgeList[0]!.status = "stopped";
    const again = new Map(parsePrometheus(await (await app.request("/api/metrics/prometheus")).text()).map((f) => [f.name, f]));
    assert.equal(again.get("hub_bridges")?.metrics[0]?.value, "1");
    assert.deepEqual(
      again.get("hub_bridge_status")?.metrics.map((m) => [m.labels?.bridge_id, m.value]),
      [["b1", "0"]],
    );
  });

  it("names counters, and only counters, with _total (Prometheus naming)", async () => {
    const text = await (await appFor(fakeSources()).request("/api/metrics/prometheus")).text();
    const families = parsePrometheus(text);
    assert.ok(families.length > 20);
    // prom-client's default process metrics keep the names the library (and every Node dashboard) gives them.
    const library = /^hub_nodejs_active_(handles|requests|resources)_total$/;
    for (const family of families) {
      if (family.type === "GAUGE" && !library.test(family.name)) assert.doesNotMatch(family.name, /_total$/, family.name);
      if (family.type === "COUNTER") assert.match(family.name, /_total$/, family.name);
    }
  });

  it("keeps each app's registry separate (no global registry)", async () => {
    const first = await (await appFor(fakeSources()).request("/api/metrics/prometheus")).text();
    const second = await (await appFor(fakeSources()).request("/api/metrics/prometheus")).text();
    assert.equal((first.match(/^# TYPE hub_uptime_seconds /gm) ?? []).length, 1);
    assert.equal((second.match(/^# TYPE hub_uptime_seconds /gm) ?? []).length, 1);
  });
});
