import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { after, before, describe, it } from "node:test";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import { createDemoHome } from "../../simulators/home-assistant/demo-home.ts";
import { type HaSimulator, startHaSimulator } from "../../simulators/home-assistant/index.ts";
import { basicAuthorization } from "../src/auth/basic-header.ts";
import { freeUdpPort } from "./support/matter-fixtures.ts";
import { createTestHub, eventually, type TestHub } from "./support/test-context.ts";

interface ParsedFamily {
  name: string;
  metrics: { value?: string; labels?: Record<string, string> }[];
}
// An independent parser of the exposition format, so prom-client does not check itself.
const parsePrometheus = createRequire(import.meta.url)("parse-prometheus-text-format") as (text: string) => ParsedFamily[];

const USER = "operator";
const PASSWORD = "correct horse battery staple";

/** A concrete path for a route pattern (`:bridgeId` → a value, wildcards → a segment). */
function concrete(path: string): string {
  return path.replace(/:[A-Za-z]+(\{[^}]*\})?/g, "x1").replace(/\*/g, "anything");
}

describe("the real hub with Basic credentials: every route guarded, metrics from the live services", () => {
  let sim: HaSimulator;
  let hub: TestHub;
  const good = { Authorization: basicAuthorization(USER, PASSWORD) };

  before(async () => {
    assertNetworkIsolated();
    sim = await startHaSimulator({ token: "t", home: createDemoHome() });
    hub = await createTestHub({
      ha: { url: sim.url, token: "t" },
      start: true,
      env: { HUB_AUTH_USERNAME: USER, HUB_AUTH_PASSWORD: PASSWORD },
    });
    await hub.homeAssistant.whenLoaded();
  });
  after(async () => {
    await hub?.stop();
    await sim?.close();
  });

  it("refuses every route of the app without credentials and with wrong ones (401 {error} and a Basic challenge)", async () => {
    const routes = hub.app.routes.filter((route) => route.method !== "ALL" || route.path.startsWith("/api"));
    const seen = new Set<string>();
    let checked = 0;
    for (const route of routes) {
      const method = route.method === "ALL" ? "GET" : route.method;
      const path = concrete(route.path);
      if (path === "/api/health/live" || seen.has(`${method} ${path}`)) continue;
      seen.add(`${method} ${path}`);
      const attempts: Record<string, string>[] = [
        {},
        { Authorization: basicAuthorization(USER, "wrong") },
        { Authorization: "Bearer x" },
      ];
      for (const headers of attempts) {
        const response = await hub.app.request(path, { method, headers });
        assert.equal(response.status, 401, `${method} ${path} with ${JSON.stringify(headers)}`);
        assert.match(response.headers.get("www-authenticate") ?? "", /^Basic realm=/, `${method} ${path}`);
        assert.deepEqual(Object.keys((await response.json()) as object), ["error"]);
      }
      checked++;
    }
    assert.ok(checked > 60, `walked ${checked} routes`);
    // The UI itself too (outside /api).
    assert.equal((await hub.app.request("/")).status, 401);
  });

  it("answers with the right credentials, and keeps only the liveness probe open", async () => {
    assert.equal((await hub.app.request("/api/health/live")).status, 200);
    assert.equal((await hub.app.request("/api/home-assistant/entities?limit=1", { headers: good })).status, 200);
    assert.equal((await hub.app.request("/api/matter/bridges", { headers: good })).status, 200);
  });

  it("exposes the live bridges, devices, HA link and counters in Prometheus format (independent parser)", async () => {
    const created = await hub.app.request("/api/matter/bridges", {
      method: "POST",
      headers: { ...good, "content-type": "application/json" },
      body: JSON.stringify({
        name: "Metrics",
        port: await freeUdpPort(),
        filter: { include: [{ type: "domain", value: "light" }] },
      }),
    });
    assert.equal(created.status, 201);
    const bridge = (await created.json()) as { id: string };
    await eventually(() => hub.ctx.bridges.record(bridge.id)?.status === "running", 30_000);
    const lights = [...hub.homeAssistant.model.entityIds()].filter((id) => id.startsWith("light.")).length;

    const families = await eventually(async () => {
      const response = await hub.app.request("/api/metrics/prometheus", { headers: good });
      assert.equal(response.status, 200);
      assert.match(response.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
      const parsed = parsePrometheus(await response.text());
      const devices = parsed.find((f) => f.name === "hub_bridge_devices")?.metrics[0];
      return Number(devices?.value) > 0 ? parsed : undefined;
    }, 10_000);
    const family = (name: string) => {
      const found = families.find((f) => f.name === name);
      assert.ok(found, `${name} is exposed`);
      return found;
    };
    assert.equal(family("hub_bridges").metrics[0]?.value, "1");
    assert.deepEqual(family("hub_bridge_status").metrics, [
      { value: "1", labels: { bridge_id: bridge.id, bridge_name: "Metrics" } },
    ]);
    assert.ok(Number(family("hub_bridge_devices").metrics[0]?.value) >= lights - 2, "roughly every light is a device");
    assert.equal(family("hub_home_assistant_connected").metrics[0]?.value, "1");
    assert.ok(Number(family("hub_uptime_seconds").metrics[0]?.value) > 0);
    assert.ok(Number(family("hub_memory_rss_bytes").metrics[0]?.value) > 10_000_000);

    const events = Number(family("hub_home_assistant_state_events_total").metrics[0]?.value);
    sim.setState("light.kitchen_spots", sim.getState("light.kitchen_spots")?.state === "on" ? "off" : "on");
    await eventually(async () => {
      const text = await (await hub.app.request("/api/metrics/prometheus", { headers: good })).text();
      const now = parsePrometheus(text).find((f) => f.name === "hub_home_assistant_state_events_total");
      return Number(now?.metrics[0]?.value) > events;
    });
  });
});
