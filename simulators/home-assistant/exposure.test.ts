import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Connection, HassEvent } from "home-assistant-js-websocket";
import { createDemoHome } from "./demo-home.ts";
import { startHaSimulator } from "./simulator.ts";
import { connectClient, until } from "./test-helpers.ts";
import type { HaSimulator } from "./types.ts";

type ExposeList = { exposed_entities: Record<string, Record<string, boolean>> };

/** HA's `homeassistant/exposed_entities.py` commands and `get_entries`, through the client library the hub uses. */
describe("HA simulator: voice assistant exposure", () => {
  let sim: HaSimulator;
  let conn: Connection;
  const send = <T = unknown>(message: Record<string, unknown>) => conn.sendMessagePromise<T>(message as never);
  const list = async () => (await send<ExposeList>({ type: "homeassistant/expose_entity/list" })).exposed_entities;
  const failure = async (message: Record<string, unknown>) => {
    const error = await send(message).then(
      () => assert.fail(`${JSON.stringify(message)} was accepted`),
      (reason: unknown) => reason as { code: string; message: string },
    );
    return `${error.code}: ${error.message}`;
  };

  before(async () => {
    sim = await startHaSimulator({ token: "secret", home: createDemoHome(), motionMs: 0 });
    conn = await connectClient(sim);
  });
  after(async () => {
    conn.close();
    await sim.close();
  });

  it("lists the entities exposed to a known assistant, each with true only, registered or not", async () => {
    const exposed = await list();
    assert.deepEqual(exposed["light.living_room_ceiling"], { "cloud.alexa": true, conversation: true });
    assert.deepEqual(exposed["light.floor_lamp"], { conversation: true }, "false settings are left out");
    assert.deepEqual(exposed["lock.front_door"], { "cloud.alexa": true });
    assert.deepEqual(exposed["sensor.outdoor_feels_like"], { conversation: true }, "an entity without registry entry");
    assert.equal(exposed["light.kitchen_spots"], undefined, "never set: not listed");
    assert.ok(Object.values(exposed).every((entry) => Object.values(entry).every((value) => value === true)));
    assert.deepEqual(exposed, sim.exposedEntities());
  });

  it("stores a registry entity's setting in its entry options and fires entity_registry_updated with the old options", async () => {
    const events: HassEvent[] = [];
    const unsubscribe = await conn.subscribeEvents<HassEvent>((event) => events.push(event), "entity_registry_updated");
    const before = await send<{ options: Record<string, unknown> }>({
      type: "config/entity_registry/get",
      entity_id: "light.kitchen_spots",
    });
    await send({
      type: "homeassistant/expose_entity",
      assistants: ["conversation", "cloud.google_assistant"],
      entity_ids: ["light.kitchen_spots"],
      should_expose: true,
    });
    await until(() => events.length === 2);
    // One async_update_entity_options per assistant: two events, each carrying the options before it.
    assert.deepEqual(
      events.map((event) => event.data),
      [
        { action: "update", entity_id: "light.kitchen_spots", changes: { options: before.options } },
        {
          action: "update",
          entity_id: "light.kitchen_spots",
          changes: { options: { ...before.options, conversation: { should_expose: true } } },
        },
      ],
    );
    const entry = await send<{ options: Record<string, unknown> }>({
      type: "config/entity_registry/get",
      entity_id: "light.kitchen_spots",
    });
    assert.deepEqual(entry.options, {
      ...before.options,
      conversation: { should_expose: true },
      "cloud.google_assistant": { should_expose: true },
    });
    assert.deepEqual((await list())["light.kitchen_spots"], { "cloud.google_assistant": true, conversation: true });

    // The same setting again changes nothing and fires nothing.
    await send({
      type: "homeassistant/expose_entity",
      assistants: ["conversation"],
      entity_ids: ["light.kitchen_spots"],
      should_expose: true,
    });
    await conn.ping();
    assert.equal(events.length, 2);

    await send({
      type: "homeassistant/expose_entity",
      assistants: ["conversation"],
      entity_ids: ["light.kitchen_spots"],
      should_expose: false,
    });
    await until(() => events.length === 3);
    assert.deepEqual((await list())["light.kitchen_spots"], { "cloud.google_assistant": true });
    unsubscribe();
  });

  it("keeps an unregistered entity's setting in its own store, silently (no event at all)", async () => {
    const events: HassEvent[] = [];
    const unsubscribe = await conn.subscribeEvents<HassEvent>((event) => events.push(event));
    await send({
      type: "homeassistant/expose_entity",
      assistants: ["cloud.alexa"],
      entity_ids: ["sensor.outdoor_feels_like", "sensor.nothing_by_this_name"],
      should_expose: true,
    });
    await conn.ping();
    assert.deepEqual(events, []);
    const exposed = await list();
    assert.deepEqual(exposed["sensor.outdoor_feels_like"], { "cloud.alexa": true, conversation: true });
    // HA stores a setting for any id it is given, known or not.
    assert.deepEqual(exposed["sensor.nothing_by_this_name"], { "cloud.alexa": true });
    assert.deepEqual(sim.snapshot().exposure?.["sensor.outdoor_feels_like"], { conversation: true, "cloud.alexa": true });
    unsubscribe();
  });

  it("validates like HA: unknown assistant, wrong types, missing keys, a never-exposed entity", async () => {
    const expose = {
      type: "homeassistant/expose_entity",
      assistants: ["conversation"],
      entity_ids: ["light.a"],
      should_expose: true,
    };
    assert.equal(
      await failure({ ...expose, assistants: ["conversation", "siri"] }),
      "invalid_format: value must be one of ['cloud.alexa', 'cloud.google_assistant', 'conversation'] @ data['assistants'][1]. Got 'siri'",
    );
    assert.equal(
      await failure({ ...expose, should_expose: "yes" }),
      "invalid_format: expected bool for dictionary value @ data['should_expose']. Got 'yes'",
    );
    assert.equal(
      await failure({ ...expose, entity_ids: "light.a" }),
      "invalid_format: expected a list for dictionary value @ data['entity_ids']. Got 'light.a'",
    );
    assert.equal(
      await failure({ ...expose, entity_ids: ["light.a", 5] }),
      "invalid_format: expected str @ data['entity_ids'][1]. Got 5",
    );
    const { should_expose: _, ...missing } = expose;
    assert.equal(await failure(missing), "invalid_format: required key not provided @ data['should_expose']. Got None");
    assert.equal(await failure({ ...expose, entity_ids: ["group.all_locks"] }), "not_allowed: can't expose 'group.all_locks'");
    assert.equal(
      await failure({ type: "homeassistant/expose_new_entities/get", assistant: "siri" }),
      "invalid_format: value must be one of ['cloud.alexa', 'cloud.google_assistant', 'conversation'] for dictionary value @ data['assistant']. Got 'siri'",
    );
  });

  it("answers and sets expose_new per assistant (Assist exposes new entities by default)", async () => {
    const get = (assistant: string) =>
      send<{ expose_new: boolean }>({ type: "homeassistant/expose_new_entities/get", assistant });
    assert.deepEqual(await get("conversation"), { expose_new: true });
    assert.deepEqual(await get("cloud.alexa"), { expose_new: false });
    await send({ type: "homeassistant/expose_new_entities/set", assistant: "cloud.alexa", expose_new: true });
    assert.deepEqual(await get("cloud.alexa"), { expose_new: true });
  });

  it("reads several registry entries at once with get_entries (null for an id not in the registry)", async () => {
    const entries = await send<Record<string, { entity_id: string; device_class: unknown } | null>>({
      type: "config/entity_registry/get_entries",
      entity_ids: ["light.floor_lamp", "sensor.outdoor_feels_like"],
    });
    assert.deepEqual(Object.keys(entries), ["light.floor_lamp", "sensor.outdoor_feels_like"]);
    assert.equal(entries["light.floor_lamp"]?.entity_id, "light.floor_lamp");
    assert.ok("device_class" in (entries["light.floor_lamp"] ?? {}), "the extended entry, as config/entity_registry/get");
    assert.equal(entries["sensor.outdoor_feels_like"], null);
    assert.equal(
      await failure({ type: "config/entity_registry/get_entries", entity_ids: ["not an id"] }),
      "invalid_format: Entity ID not an id is an invalid entity ID @ data['entity_ids'][0]. Got 'not an id'",
    );
  });

  it("rewrites a state's device_class when the registry's changes, as an entity platform does", async () => {
    const id = "binary_sensor.front_door_contact";
    assert.ok(sim.getState(id), `${id} exists in the demo home`);
    sim.updateEntity(id, { device_class: "window" });
    assert.equal(sim.getState(id)?.attributes.device_class, "window");
    sim.updateEntity(id, { device_class: null });
    assert.equal(
      sim.getState(id)?.attributes.device_class,
      createDemoHome().states.find((s) => s.entity_id === id)?.attributes.device_class,
    );
  });
});
