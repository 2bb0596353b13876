import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createDemoHome } from "../../simulators/home-assistant/demo-home.ts";
import { type HaSimulator, startHaSimulator } from "../../simulators/home-assistant/index.ts";
import { HaActionError } from "../src/home-assistant/action-caller.ts";
import { createTestHub, eventually, type TestHub } from "./support/test-context.ts";

const json = async <T = Record<string, unknown>>(response: Response | Promise<Response>) => (await (await response).json()) as T;

describe("hub ↔ Home Assistant", () => {
  let sim: HaSimulator;
  let hub: TestHub;
  let app: TestHub["app"];

  before(async () => {
    sim = await startHaSimulator({ token: "test-token", home: createDemoHome() });
    hub = await createTestHub({ ha: { url: sim.url, token: sim.token }, start: true });
    app = hub.app;
    await hub.homeAssistant.whenLoaded();
  });
  after(async () => {
    await hub.stop();
    await sim.close();
  });

  it("loads states and every registry, and reports ready", async () => {
    const home = createDemoHome();
    const model = hub.homeAssistant.model;
    assert.equal(model.states.size, home.states.length);
    assert.equal(model.entities.size, home.entities.length);
    assert.equal(model.devices.size, home.devices.length);
    assert.equal(model.areas.size, home.areas.length);
    assert.equal(model.labels.size, home.labels.length);
    assert.equal((await app.request("/api/health/ready")).status, 200);
    const stats = await json<{
      connected: boolean;
      connection: { state: string; haVersion: string | null; error: string | null; lastConnectedAt: string | null };
      entities: { total: number; withState: number; registered: number; unavailable: number };
      devices: number;
      areas: number;
      labels: number;
      domains: number;
    }>(app.request("/api/home-assistant/stats"));
    assert.equal(stats.connected, true);
    assert.equal(stats.connection.haVersion, "2026.11.1");
    assert.equal(stats.connection.error, null);
    assert.ok(!Number.isNaN(Date.parse(stats.connection.lastConnectedAt ?? "")));
    const ids = new Set([...home.states.map((s) => s.entity_id), ...home.entities.map((e) => e.entity_id)]);
    assert.deepEqual(stats.entities, {
      total: ids.size,
      withState: home.states.length,
      registered: home.entities.length,
      unavailable: home.states.filter((s) => s.state === "unavailable").length,
    });
    assert.ok(stats.entities.unavailable > 0, "the demo home has unavailable entities");
    assert.deepEqual(
      [stats.devices, stats.areas, stats.labels, stats.domains],
      [home.devices.length, home.areas.length, home.labels.length, new Set([...ids].map((id) => id.split(".")[0])).size],
    );
  });

  it("follows state changes, delivering each only to that entity's listeners", async () => {
    const [light, other] = [...hub.homeAssistant.model.states.keys()].filter((id) => id.startsWith("light."));
    assert.ok(light && other);
    const heard: string[] = [];
    const offA = hub.homeAssistant.model.onEntity(light, (id) => heard.push(id));
    const offB = hub.homeAssistant.model.onEntity(other, (id) => heard.push(id));
    sim.setState(light, "on", { brightness: 42 });
    await eventually(() => hub.homeAssistant.model.states.get(light)?.attributes.brightness === 42);
    assert.deepEqual(heard, [light]);
    offA();
    offB();
    const record = await json<{ state: string; attributes: { brightness: number } }>(
      app.request(`/api/home-assistant/entities/${light}`),
    );
    assert.equal(record.state, "on");
    assert.equal(record.attributes.brightness, 42);
  });

  it("follows registry changes: new, renamed and removed entities, and a device moved to another area", async () => {
    const model = hub.homeAssistant.model;
    sim.addEntity(
      {
        entity_id: "switch.new_plug",
        id: "reg-new-plug",
        unique_id: "plug-0001",
        platform: "shelly",
        device_id: null,
        area_id: "garage",
        config_entry_id: null,
        disabled_by: null,
        hidden_by: null,
        entity_category: null,
        has_entity_name: false,
        name: null,
        original_name: "New plug",
        icon: null,
        labels: [],
      },
      {
        entity_id: "switch.new_plug",
        state: "off",
        attributes: { friendly_name: "New plug" },
        last_changed: new Date().toISOString(),
        last_updated: new Date().toISOString(),
        context: { id: "c1", parent_id: null, user_id: null },
      },
    );
    await eventually(() => model.entities.has("switch.new_plug") && model.states.has("switch.new_plug"));
    sim.updateEntity("switch.new_plug", { entity_id: "switch.garage_plug" });
    await eventually(() => model.entities.has("switch.garage_plug") && !model.entities.has("switch.new_plug"));
    assert.equal(model.entities.get("switch.garage_plug")?.unique_id, "plug-0001");
    sim.removeEntity("switch.garage_plug");
    await eventually(() => !model.entities.has("switch.garage_plug"));

    const entry = [...model.entities.values()].find(
      (e) => e.device_id && !e.area_id && !e.disabled_by && model.states.has(e.entity_id),
    );
    assert.ok(entry?.device_id, "the demo home has an entity whose area comes from its device");
    const before = await json<{ area_id: string }>(app.request(`/api/home-assistant/entities/${entry.entity_id}`));
    const newArea = [...model.areas.keys()].find((area) => area !== before.area_id);
    assert.ok(newArea);
    sim.updateDevice(entry.device_id, { area_id: newArea });
    await eventually(
      async () =>
        (await json<{ area_id: string }>(app.request(`/api/home-assistant/entities/${entry.entity_id}`))).area_id === newArea,
    );
  });

  it("calls services through the action caller and reports HA's refusals and time-outs", async () => {
    const light = [...hub.homeAssistant.model.states.keys()].find((id) => id.startsWith("light."))!;
    sim.clearCalls();
    await hub.homeAssistant.actions.call({ action: "light.turn_off", entityId: light });
    assert.equal(sim.calls.length, 1);
    assert.deepEqual([sim.calls[0]?.domain, sim.calls[0]?.service], ["light", "turn_off"]);
    await eventually(() => hub.homeAssistant.model.states.get(light)?.state === "off");

    sim.setServiceBehavior({ fail: { code: "home_assistant_error", message: "Device is offline" } });
    await assert.rejects(hub.homeAssistant.actions.call({ action: "light.turn_on", entityId: light }), (error: unknown) => {
      assert.ok(error instanceof HaActionError);
      assert.equal(error.code, "home_assistant_error");
      return true;
    });
    sim.setServiceBehavior({ delayMs: 3000 });
    await assert.rejects(hub.homeAssistant.actions.call({ action: "light.turn_on", entityId: light }), { code: "timeout" });
    sim.setServiceBehavior(undefined);
  });
});

describe("hub ↔ Home Assistant connection faults", () => {
  it("survives a 10 s outage: not ready while away, reconnects and reloads by itself", { timeout: 40_000 }, async () => {
    const sim = await startHaSimulator({ token: "t" });
    const hub = await createTestHub({ ha: { url: sim.url, token: "t" }, start: true });
    const app = hub.app;
    try {
      await hub.homeAssistant.whenLoaded();
      sim.refuseConnections(10_000);
      sim.dropConnections();
      await eventually(() => !hub.homeAssistant.client.status.connected, 2000);
      assert.equal((await app.request("/api/health/ready")).status, 503);
      const health = await json<{ status: string; services: { homeAssistant: { connected: boolean } } }>(
        app.request("/api/health"),
      );
      assert.equal(health.services.homeAssistant.connected, false);
      const someLight = [...hub.homeAssistant.model.states.keys()].find((id) => id.startsWith("light."))!;
      sim.setState(someLight, "on", { brightness: 77 });
      await eventually(() => hub.homeAssistant.client.status.connected, 25_000, 100);
      assert.equal((await app.request("/api/health/ready")).status, 200);
      // The change made while we were away arrives with the fresh snapshot.
      await eventually(() => hub.homeAssistant.model.states.get(someLight)?.attributes.brightness === 77);
      assert.ok(hub.homeAssistant.client.status.reconnects >= 1);
    } finally {
      await hub.stop();
      await sim.close();
    }
  });

  it("waits through an HA restart that reports NOT_RUNNING first", { timeout: 20_000 }, async () => {
    const sim = await startHaSimulator({ token: "t" });
    const hub = await createTestHub({ ha: { url: sim.url, token: "t" }, start: true });
    try {
      await hub.homeAssistant.whenLoaded();
      let readyCount = 0;
      hub.homeAssistant.client.on("ready", () => readyCount++);
      await sim.restart({ notRunningMs: 1500 });
      const started = Date.now();
      await eventually(() => readyCount > 0, 15_000, 50);
      assert.ok(Date.now() - started >= 1000, "ready only after HA reported RUNNING");
      assert.ok(hub.logLines().some((line) => line.includes("waiting for RUNNING")));
    } finally {
      await hub.stop();
      await sim.close();
    }
  });

  it("says so when a token that worked is revoked: the token is no longer accepted, restart with a new one", async () => {
    const sim = await startHaSimulator({ token: "first" });
    const hub = await createTestHub({ ha: { url: sim.url, token: "first" }, start: true });
    try {
      await hub.homeAssistant.whenLoaded();
      sim.setToken("second"); // HA closes the revoked token's sessions; the reconnect meets auth_invalid
      await eventually(() => hub.homeAssistant.client.status.fatal);
      const health = await json<{ status: string; services: { homeAssistant: { error: string } } }>(
        hub.app.request("/api/health"),
      );
      assert.equal(health.status, "unhealthy");
      assert.match(health.services.homeAssistant.error, /no longer accepts the access token.*revoked/);
      assert.match(health.services.homeAssistant.error, /restart the hub/);
      await eventually(() => sim.connectionCount() === 0);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.equal(sim.connectionCount(), 0, "no new connection after giving up");
    } finally {
      await hub.stop();
      await sim.close();
    }
  });

  it("treats an invalid token as fatal: logged, unhealthy, no retry storm", async () => {
    const sim = await startHaSimulator({ token: "right" });
    const hub = await createTestHub({ ha: { url: sim.url, token: "wrong" }, start: true });
    const app = hub.app;
    try {
      await eventually(() => hub.homeAssistant.client.status.fatal);
      const health = await app.request("/api/health");
      assert.equal(health.status, 503);
      assert.equal((await json<{ status: string }>(health)).status, "unhealthy");
      const ready = await app.request("/api/health/ready");
      assert.equal(ready.status, 503);
      assert.match((await json<{ error: string }>(ready)).error, /refused the access token/);
      assert.ok(hub.logLines().some((line) => line.includes('"level":"fatal"') && line.includes("HA_TOKEN")));
      assert.ok(!hub.logLines().some((line) => line.includes("wrong")), "the token never reaches the log");
      // The refused socket closes (the server may see that a moment after the hub gave up), and none follows.
      await eventually(() => sim.connectionCount() === 0);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.equal(sim.connectionCount(), 0);
    } finally {
      await hub.stop();
      await sim.close();
    }
  });
});
