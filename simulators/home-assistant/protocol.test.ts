import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  type Connection,
  ERR_INVALID_AUTH,
  getConfig,
  getServices,
  getStates,
  type HassEntities,
  type HassEvent,
  subscribeEntities,
} from "home-assistant-js-websocket";
import { compressState, entitiesEventFor, stateDiff } from "./core/compressed-states.ts";
import { State } from "./core/state-machine.ts";
import { createDemoHome } from "./demo-home.ts";
import { startHaSimulator } from "./simulator.ts";
import { connectClient, rawClient, until } from "./test-helpers.ts";
import type { HaSimulator } from "./types.ts";

describe("HA simulator: protocol with home-assistant-js-websocket", () => {
  let sim: HaSimulator;
  let conn: Connection;

  before(async () => {
    sim = await startHaSimulator({ token: "secret", home: createDemoHome(), motionMs: 0 });
    conn = await connectClient(sim);
  });
  after(async () => {
    conn.close();
    await sim.close();
  });

  it("authenticates, reports its version and configuration", async () => {
    assert.equal(conn.haVersion, "2026.11.1");
    assert.match(sim.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const config = await getConfig(conn);
    assert.equal(config.state, "RUNNING");
    assert.equal(config.unit_system.temperature, "°C");
    assert.equal(config.version, "2026.11.1");
    assert.ok(config.components.includes("light") && config.components.includes("hue"));
    assert.equal(typeof config.time_zone, "string");
  });

  it("refuses a wrong token with ERR_INVALID_AUTH and closes the socket", async () => {
    await assert.rejects(connectClient(sim, "wrong"), (error: unknown) => error === ERR_INVALID_AUTH);
    await until(() => sim.connectionCount() === 1, 2000, "the refused socket to close");
  });

  it("serves states, services and the registries in HA's shapes", async () => {
    const states = await getStates(conn);
    assert.equal(states.length, createDemoHome().states.length);
    const lamp = states.find((s) => s.entity_id === "light.floor_lamp");
    assert.equal(lamp?.state, "on");
    assert.match(lamp?.last_changed ?? "", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?\+00:00$/);
    assert.ok("last_reported" in (lamp ?? {}));

    const services = await getServices(conn);
    assert.ok(services.light?.turn_on?.fields.brightness_pct);
    assert.deepEqual(services.cover?.set_cover_position?.target, { entity: [{ domain: ["cover"], supported_features: [4] }] });
    assert.deepEqual(services.weather?.get_forecasts?.response, { optional: false });
    assert.ok(services.script?.goodnight, "each script has its own service");

    const entities = await conn.sendMessagePromise<Record<string, unknown>[]>({ type: "config/entity_registry/list" });
    const ceiling = entities.find((e) => e.entity_id === "light.living_room_ceiling");
    assert.ok(ceiling);
    assert.ok(!("device_class" in ceiling), "the list uses HA's partial dict");
    for (const key of [
      "area_id",
      "categories",
      "config_entry_id",
      "device_id",
      "disabled_by",
      "entity_category",
      "has_entity_name",
      "hidden_by",
      "id",
      "labels",
      "options",
      "original_name",
      "platform",
      "unique_id",
    ]) {
      assert.ok(key in ceiling, key);
    }
    const full = await conn.sendMessagePromise<Record<string, unknown>>({
      type: "config/entity_registry/get",
      entity_id: "sensor.p1_meter_power",
    });
    assert.equal(full.original_device_class, "power");
    const display = await conn.sendMessagePromise<{ entities: Record<string, unknown>[] }>({
      type: "config/entity_registry/list_for_display",
    });
    assert.ok(display.entities.every((e) => typeof e.ei === "string"));
    const devices = await conn.sendMessagePromise<Record<string, unknown>[]>({ type: "config/device_registry/list" });
    assert.ok(devices.some((d) => d.manufacturer === "Signify Netherlands B.V." && d.via_device_id !== null));
    const areas = await conn.sendMessagePromise<Record<string, unknown>[]>({ type: "config/area_registry/list" });
    assert.ok(areas.some((a) => a.area_id === "kitchen" && a.name === "Kitchen"));
    const labels = await conn.sendMessagePromise<Record<string, unknown>[]>({ type: "config/label_registry/list" });
    assert.ok(labels.some((l) => l.name === "Voice assistants"));
    await conn.ping();
  });

  it("answers protocol mistakes like HA: unknown command, id reuse, bad format, extra keys", async () => {
    const client = await rawClient(sim, { coalesce: true });
    try {
      client.send({ id: 5, type: "does/not/exist" });
      assert.deepEqual((await client.reply(5)).error, { code: "unknown_command", message: "Unknown command." });
      client.send({ id: 6, type: "ping" });
      assert.equal((await client.reply(6)).type, "pong");
      client.send({ id: 6, type: "ping" });
      await until(() => client.received.filter((m) => m.id === 6).length === 2);
      const reuse = client.received.filter((m) => m.id === 6)[1]?.error as { code?: string } | undefined;
      assert.equal(reuse?.code, "id_reuse");
      client.send({ id: "x", type: "ping" });
      await until(() =>
        client.received.some((m) => (m.error as { message?: string } | undefined)?.message === "Message incorrectly formatted."),
      );
      client.send({ id: 8, type: "get_states", extra: 1 });
      assert.deepEqual((await client.reply(8)).error, {
        code: "invalid_format",
        message: "extra keys not allowed @ data['extra']. Got 1",
      });
      client.send({ id: 9, type: "unsubscribe_events", subscription: 4242 });
      assert.equal(((await client.reply(9)).error as { code: string }).code, "not_found");
    } finally {
      client.close();
    }
  });

  it("coalesces messages sent together into one array frame once asked to", async () => {
    const client = await rawClient(sim, { coalesce: true });
    try {
      client.send({ id: 2, type: "subscribe_entities", entity_ids: ["light.floor_lamp"] });
      await until(() => client.received.some((m) => m.id === 2 && m.type === "event"));
      const frame = client.frames.find((f) => Array.isArray(f) && f.some((m) => (m as { id?: number }).id === 2));
      assert.ok(frame, "result and first event travel in one frame");
      const event = client.received.find((m) => m.id === 2 && m.type === "event")?.event as { a: Record<string, unknown> };
      assert.deepEqual(Object.keys(event.a), ["light.floor_lamp"]);
    } finally {
      client.close();
    }
  });

  it("streams compressed entity changes: snapshot, changes with removed attributes, adds and removals", async () => {
    let entities: HassEntities = {};
    subscribeEntities(conn, (next) => {
      entities = next;
    });
    await until(() => Object.keys(entities).length > 0);
    assert.equal(Object.keys(entities).length, sim.getStates().length);

    sim.setState("sensor.living_room_sensor_temperature", "22.9", { custom: "x" });
    await until(() => entities["sensor.living_room_sensor_temperature"]?.attributes.custom === "x");
    assert.equal(entities["sensor.living_room_sensor_temperature"]?.state, "22.9");
    sim.setState("sensor.living_room_sensor_temperature", "22.9", { custom: undefined });
    await until(() => !("custom" in (entities["sensor.living_room_sensor_temperature"]?.attributes ?? { custom: 1 })));
    const after = entities["sensor.living_room_sensor_temperature"];
    assert.equal(after?.attributes.unit_of_measurement, "°C");
    assert.equal(after?.state, "22.9");
    assert.notEqual(after?.last_updated, after?.last_changed, "an attribute-only change moves last_updated only");

    sim.setState("binary_sensor.new_door", "off", { device_class: "door", friendly_name: "New door" });
    await until(() => entities["binary_sensor.new_door"]?.state === "off");
    sim.removeState("binary_sensor.new_door");
    await until(() => !entities["binary_sensor.new_door"]);
  });

  it("keeps the client's view identical to the simulator's after a burst of changes", async () => {
    let entities: HassEntities = {};
    subscribeEntities(conn, (next) => {
      entities = next;
    });
    await until(() => Object.keys(entities).length > 0);
    for (let i = 0; i < 50; i++) sim.setState("sensor.p1_meter_power", String(1000 + i));
    await callServiceRaw(conn, "light", "turn_off", "light.living_room_ceiling");
    await until(
      () => entities["sensor.p1_meter_power"]?.state === "1049" && entities["light.living_room_ceiling"]?.state === "off",
    );
    for (const id of ["sensor.p1_meter_power", "light.living_room_ceiling"]) {
      const mine = sim.getState(id);
      const theirs = entities[id];
      assert.ok(mine && theirs);
      assert.deepEqual([theirs.state, theirs.attributes, theirs.context], [mine.state, mine.attributes, mine.context]);
      // The library rebuilds timestamps from epoch floats (millisecond ISO strings): same instants.
      assert.ok(Math.abs(Date.parse(theirs.last_changed) - Date.parse(mine.last_changed)) < 1);
      assert.ok(Math.abs(Date.parse(theirs.last_updated) - Date.parse(mine.last_updated)) < 1);
    }
  });

  it("delivers state_changed and registry events to subscribe_events, and stops after unsubscribing", async () => {
    const events: HassEvent[] = [];
    const unsubscribe = await conn.subscribeEvents<HassEvent>((event) => events.push(event));
    const stateOnly: HassEvent[] = [];
    const unsubscribeState = await conn.subscribeEvents<HassEvent>((event) => stateOnly.push(event), "state_changed");

    sim.setState("input_boolean.guest_mode", "on");
    await until(() => stateOnly.length === 1);
    const changed = stateOnly[0];
    assert.equal(changed?.data.entity_id, "input_boolean.guest_mode");
    assert.equal(changed?.data.old_state.state, "off");
    assert.equal(changed?.data.new_state.state, "on");
    assert.equal(changed?.origin, "LOCAL");
    assert.equal(changed?.context.id, changed?.data.new_state.context.id);

    sim.updateEntity("light.floor_lamp", { name: "Reading Lamp", labels: ["night_mode"] });
    await until(() => events.some((e) => e.event_type === "entity_registry_updated"));
    const registryEvent = events.find((e) => e.event_type === "entity_registry_updated");
    assert.deepEqual(registryEvent?.data, {
      action: "update",
      entity_id: "light.floor_lamp",
      changes: { name: null, labels: [] },
    });
    await until(() => sim.getState("light.floor_lamp")?.attributes.friendly_name === "Reading Lamp");

    sim.updateEntity("switch.garage_heater", { entity_id: "switch.cabinet_heater" });
    await until(() => events.some((e) => e.data.old_entity_id === "switch.garage_heater"));
    assert.equal(sim.getState("switch.garage_heater"), undefined);
    assert.equal(sim.getState("switch.cabinet_heater")?.state, "on");

    sim.addArea({ area_id: "attic", name: "Attic", floor_id: null, icon: null, labels: [], aliases: [], picture: null });
    sim.addLabel({ label_id: "temp", name: "Temp", color: null, icon: null, description: null });
    sim.updateDevice(createDemoHome().devices[3]?.id ?? "", { area_id: "attic" });
    sim.removeArea("attic");
    sim.removeLabel("temp");
    sim.fireEvent("homeassistant_started");
    await until(() => events.some((e) => e.event_type === "homeassistant_started"));
    const types = events.map((e) => `${e.event_type}:${e.data.action ?? ""}`);
    for (const expected of [
      "area_registry_updated:create",
      "label_registry_updated:create",
      "device_registry_updated:update",
      "area_registry_updated:remove",
      "label_registry_updated:remove",
    ]) {
      assert.ok(types.includes(expected), expected);
    }
    assert.ok(
      events.some(
        (e) => e.event_type === "device_registry_updated" && e.data.action === "update" && e.data.changes.area_id === "attic",
      ),
      "removing an area clears it from its devices",
    );

    unsubscribe();
    unsubscribeState();
    const count = events.length;
    await conn.ping();
    sim.setState("input_boolean.guest_mode", "off");
    await conn.ping();
    assert.equal(events.length, count);
  });
});

async function callServiceRaw(conn: Connection, domain: string, service: string, entityId: string) {
  return conn.sendMessagePromise({ type: "call_service", domain, service, target: { entity_id: entityId } });
}

const ctx = (id: string, user: string | null = null, parent: string | null = null) => ({ id, user_id: user, parent_id: parent });
const state = (value: string, attributes: Record<string, unknown>, lc: number, lu: number, context = ctx("A")) =>
  new State("light.x", value, attributes, lc, lu, lu, context);

describe("compressed states (HA's websocket_api/messages.py)", () => {
  it("compresses: context id alone without user/parent, lu only when it differs from lc", () => {
    assert.deepEqual(compressState(state("on", { b: 1 }, 10.5, 10.5)), { s: "on", a: { b: 1 }, c: "A", lc: 10.5 });
    assert.deepEqual(compressState(state("on", {}, 10, 12, ctx("A", "u"))), {
      s: "on",
      a: {},
      c: { id: "A", user_id: "u", parent_id: null },
      lc: 10,
      lu: 12,
    });
  });

  it("diffs state, timestamps, context and attributes like _state_diff", () => {
    const old = state("on", { brightness: 10, effect: "x", keep: [1, 2] }, 10, 10);
    assert.deepEqual(stateDiff(old, state("off", { brightness: 10, keep: [1, 2] }, 20, 20, ctx("B"))), {
      "+": { s: "off", lc: 20, c: "B" },
      "-": { a: ["effect"] },
    });
    assert.deepEqual(stateDiff(old, state("on", { brightness: 20, effect: "x", keep: [1, 2] }, 10, 30, ctx("C", "u"))), {
      "+": { lu: 30, c: { user_id: "u", id: "C" }, a: { brightness: 20 } },
    });
    assert.deepEqual(stateDiff(old, state("on", { brightness: 10, effect: "x", keep: [1, 2] }, 10, 30, ctx("A", null, "P"))), {
      "+": { lu: 30, c: { parent_id: "P" } },
    });
  });

  it("turns additions and removals into `a` and `r` events", () => {
    const added = state("on", {}, 1, 1);
    assert.deepEqual(entitiesEventFor("light.x", null, added), { a: { "light.x": compressState(added) } });
    assert.deepEqual(entitiesEventFor("light.x", added, null), { r: ["light.x"] });
  });
});
