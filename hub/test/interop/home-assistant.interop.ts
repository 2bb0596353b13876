/**
 * A real Home Assistant (the pinned core with its demo platforms, support/home-assistant.ts) drives the hub, and the
 * reference SDK's controller drives the bridge: registries and filters, every demo entity exposed or skipped with a
 * reason, commands both ways, an HA outage of 10 s, and a revoked token (docs/INTEROP.md "A real Home Assistant").
 * One HA, one hub and one controller for the whole file: HA's start-up is the slow part.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { api, type BridgeRecord, type DeviceRow, devicesOf, waitForStatus } from "../support/bridge-fixture.ts";
import { freeUdpPort, tempDir } from "../support/matter-fixtures.ts";
import { createTestHub, eventually, type TestHub } from "../support/test-context.ts";
import { ChipCallError, ChipController } from "./support/chip-controller.ts";
import {
  arrangeRegistries,
  expectedSelection,
  INTEROP_AREA,
  INTEROP_LABEL,
  labelInStorage,
  type RegistryEntity,
  readHa,
} from "./support/ha-registries.ts";
import { type HaState, HomeAssistantCore } from "./support/home-assistant.ts";
import { ensurePaaTrustStore, interopNetwork, interopPaths } from "./support/interop-env.ts";

const network = interopNetwork();
const HUB_TOKEN = "Matter Hub interop";
/** Demo entities with a device each, exposed as a colour light, a plug and a thermometer. */
const LIGHT = "light.bed_light";
const SWITCH = "switch.decorative_lights";
const TEMPERATURE = "sensor.outside_temperature";

describe("a real Home Assistant drives the hub", { timeout: 300_000 }, () => {
  let ha: HomeAssistantCore;
  let hub: TestHub;
  let call: ReturnType<typeof api>;
  let chip: ChipController;
  let storage: Awaited<ReturnType<typeof tempDir>>;
  let bridge: BridgeRecord;
  let endpoints: Map<string, number>;
  let subscription: number;
  const timings: Record<string, number> = {};

  before(async () => {
    ensurePaaTrustStore();
    storage = await tempDir("chip-ha-");
    let t = Date.now();
    ha = await HomeAssistantCore.start({ name: "home-assistant" });
    timings.haStartMs = Date.now() - t;
    const token = await ha.createToken(HUB_TOKEN);
    await arrangeRegistries(ha, { deviceOf: LIGHT, entity: TEMPERATURE });
    t = Date.now();
    hub = await createTestHub({ ha: { url: ha.url, token }, start: true, env: { HUB_MDNS_INTERFACE: network.hubInterface } });
    await hub.homeAssistant.whenLoaded();
    call = api(hub);
    timings.hubLoadMs = Date.now() - t;
    chip = await ChipController.start({ names: ["alpha"], storage: `${storage.path}/chip.json`, logName: "home-assistant" });
  });

  after(async () => {
    await chip?.stop();
    if (hub) writeFileSync(join(interopPaths().artifacts, "home-assistant.hub.log"), `${hub.logLines().join("\n")}\n`);
    await hub?.stop();
    await ha?.remove();
    await storage?.remove();
    writeFileSync(join(interopPaths().artifacts, "home-assistant-timings.json"), `${JSON.stringify(timings, null, 2)}\n`);
  });

  it("loads HA's registries; area, label and device-class filters select what HA says", async () => {
    const truth = await readHa(ha);
    const stats = (await call<{ areas: number; labels: number; devices: number }>("GET", "/api/home-assistant/stats")).body;
    assert.equal(stats.devices, truth.devices.length, "devices");
    assert.equal(stats.areas, truth.areas.length, "areas");
    assert.equal(stats.labels, truth.labels.length, "labels");
    const areas = (await call<{ id: string }[]>("GET", "/api/matter/areas")).body.map((area) => area.id).sort();
    assert.deepEqual(areas, truth.areas.map((area) => area.area_id).sort());
    const labels = (await call<{ id: string }[]>("GET", "/api/matter/labels")).body.map((label) => label.id).sort();
    assert.deepEqual(labels, truth.labels.map((label) => label.label_id).sort());
    // 2024.3 lists devices without `labels`: the hub's records still carry a list.
    const devices = (await call<{ devices: { id: string; labels: unknown }[] }>("GET", "/api/home-assistant/devices?limit=500"))
      .body;
    assert.deepEqual(devices.devices.map((d) => d.id).sort(), truth.devices.map((d) => d.id).sort());
    for (const device of devices.devices) assert.deepEqual(device.labels, [], `${device.id} has a label list`);

    const classes = new Set(truth.states.map((state) => state.attributes.device_class).filter((cls) => typeof cls === "string"));
    const rules = [
      ...truth.areas.map((area) => ({ type: "area" as const, value: area.area_id })),
      ...truth.labels.map((label) => ({ type: "label" as const, value: label.label_id })),
      ...[...classes].map((value) => ({ type: "device_class" as const, value: value as string })),
    ];
    for (const rule of rules) {
      assert.deepEqual(await preview(rule), expectedSelection(truth, rule), `${rule.type} ${rule.value}`);
    }
    // The arranged registry (arrangeRegistries) is there, so the comparisons above were not all empty.
    assert.deepEqual(await preview({ type: "area", value: INTEROP_AREA }), [LIGHT, TEMPERATURE]);
    assert.ok((await preview({ type: "device_class", value: "temperature" })).includes(TEMPERATURE));
    // HA 2024.3 lists labels but cannot put one on anything yet (docs/INTEROP.md): the label selects nothing.
    assert.deepEqual(await preview({ type: "label", value: INTEROP_LABEL }), []);

    // A registry change made while the hub runs reaches the filters (registry events).
    await ha.admin.command({ type: "config/entity_registry/update", entity_id: SWITCH, area_id: INTEROP_AREA });
    await eventually(async () => (await preview({ type: "area", value: INTEROP_AREA })).includes(SWITCH), 10_000, 100);
  });

  interface HealthBody {
    status: string;
    services: { homeAssistant: { connected: boolean; error?: string } };
  }
  const health = () => call<HealthBody>("GET", "/api/health");

  async function preview(rule: { type: string; value: string }): Promise<string[]> {
    const { status, body } = await call<{ entities: { entity_id: string }[]; truncated: boolean }>(
      "POST",
      "/api/matter/filter-preview",
      { filter: { include: [rule] }, limit: 5000 },
    );
    assert.equal(status, 200);
    return body.entities.map((entity) => entity.entity_id).sort();
  }

  it("exposes every demo entity or skips it with a reason; none fails", async () => {
    const port = await freeUdpPort();
    const t = Date.now();
    const created = await call<BridgeRecord>("POST", "/api/matter/bridges", { name: "Demo home", port, filter: {} });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    bridge = await waitForStatus(call, created.body.id, "running", 120_000);
    timings.bridgeStartMs = Date.now() - t;

    const truth = await readHa(ha);
    const hidden = new Set(truth.entities.filter((e) => e.disabled_by || e.hidden_by).map((e) => e.entity_id));
    const rows = await devicesOf(call, bridge.id);
    const table: string[] = [];
    for (const state of [...truth.states].sort((a, b) => a.entity_id.localeCompare(b.entity_id))) {
      if (hidden.has(state.entity_id)) continue;
      const row = rows.get(state.entity_id);
      if (!row) {
        const missing = truth.states.map((s) => s.entity_id).filter((id) => !rows.has(id) && !hidden.has(id));
        const extra = [...rows.keys()].filter((id) => !truth.states.some((s) => s.entity_id === id));
        assert.fail(`${rows.size} rows, ${truth.states.length} states; missing ${missing.join(", ")}; extra ${extra.join(", ")}`);
      }
      assert.equal(row.failed, null, `${state.entity_id} failed: ${row.failed}`);
      const outcomes = [row.endpointNumber !== null, row.skipped !== null, row.composedInto !== null];
      assert.equal(outcomes.filter(Boolean).length, 1, `${state.entity_id}: exposed, skipped or part of another`);
      if (row.composedInto) {
        const carrier = rows.get(row.composedInto);
        assert.ok(carrier?.endpointNumber, `${state.entity_id} is part of ${row.composedInto}, which is exposed`);
        assert.ok(
          carrier.carries?.some((part) => part.entityId === state.entity_id),
          `${row.composedInto} carries it`,
        );
      }
      table.push(entityLine(state, row));
    }
    endpoints = new Map(
      [...rows.values()].filter((r) => r.endpointNumber !== null).map((r) => [r.entityId, r.endpointNumber as number]),
    );
    for (const id of [LIGHT, SWITCH, TEMPERATURE]) assert.ok(endpoints.has(id), `${id} is exposed`);
    timings.exposed = endpoints.size;
    timings.skipped = [...rows.values()].filter((r) => r.skipped !== null).length;
    writeFileSync(join(interopPaths().artifacts, "home-assistant-entities.md"), `${table.join("\n")}\n`);
  });

  function entityLine(state: HaState, row: DeviceRow): string {
    const cls = typeof state.attributes.device_class === "string" ? ` (${state.attributes.device_class})` : "";
    const outcome =
      row.endpointNumber !== null
        ? `exposed: ${row.deviceType}${row.carries?.length ? ` + ${row.carries.map((part) => part.role).join(", ")}` : ""}`
        : row.composedInto
          ? `part of ${row.composedInto}`
          : `skipped: ${row.skipped}`;
    return `| \`${state.entity_id}\`${cls} | ${outcome} |`;
  }

  it("the controller's commands change HA's states; HA's changes arrive as reports", async () => {
    const t = Date.now();
    await chip.call("commission", { controller: "alpha", node: 30, code: bridge.commissioning.manualPairingCode });
    timings.commissionMs = Date.now() - t;
    const light = endpoints.get(LIGHT) as number;
    const plug = endpoints.get(SWITCH) as number;
    const thermometer = endpoints.get(TEMPERATURE) as number;
    const subscribed = await chip.call<{ subscription: number }>("subscribe", {
      controller: "alpha",
      node: 30,
      paths: [
        [light, "OnOff", "OnOff"],
        [plug, "OnOff", "OnOff"],
        [thermometer, "TemperatureMeasurement", "MeasuredValue"],
      ],
    });
    subscription = subscribed.subscription;

    // Controller -> HA: the light on, the plug off (their demo defaults are the other way round).
    await ha.rest("POST", "/api/services/light/turn_off", { entity_id: LIGHT });
    await ha.rest("POST", "/api/services/switch/turn_on", { entity_id: SWITCH });
    await chip.invoke("alpha", 30, light, "OnOff", "On");
    await ha.waitForState(LIGHT, (state) => state.state === "on");
    await chip.invoke("alpha", 30, plug, "OnOff", "Off");
    await ha.waitForState(SWITCH, (state) => state.state === "off");

    // HA -> controller: a service call, and a state written over the REST API.
    let since = chip.events.length;
    await ha.rest("POST", "/api/services/light/turn_off", { entity_id: LIGHT });
    await chip.waitForReport({ endpoint: light, cluster: "OnOff", attribute: "OnOff" }, (v) => v === false, { since });
    since = chip.events.length;
    const current = await ha.state(TEMPERATURE);
    await ha.rest("POST", `/api/states/${TEMPERATURE}`, { state: "23.4", attributes: current.attributes });
    await chip.waitForReport(
      { endpoint: thermometer, cluster: "TemperatureMeasurement", attribute: "MeasuredValue" },
      (v) => v === 2340,
      { since },
    );
  });

  it("HA's voice-assistant exposure selects what HA lists, and exposure changes reach a running bridge", async () => {
    // What HA itself lists as exposed to Assist is what an exposed_to rule selects (among entities with a state).
    // HA writes a default only once an assistant asks, so two are exposed explicitly to have a known non-empty set.
    await ha.admin.command({
      type: "homeassistant/expose_entity",
      assistants: ["conversation"],
      entity_ids: [LIGHT, TEMPERATURE],
      should_expose: true,
    });
    const listed = await ha.admin.command<{ exposed_entities: Record<string, Record<string, boolean>> }>({
      type: "homeassistant/expose_entity/list",
    });
    const states = new Set((await ha.rest<HaState[]>("GET", "/api/states")).map((state) => state.entity_id));
    const toAssist = Object.entries(listed.exposed_entities)
      .filter(([id, assistants]) => assistants.conversation === true && states.has(id))
      .map(([id]) => id)
      .sort();
    assert.ok(toAssist.includes(LIGHT) && toAssist.includes(TEMPERATURE), JSON.stringify(toAssist));
    await eventually(
      async () => (await preview({ type: "exposed_to", value: "conversation" })).join() === toAssist.join(),
      10_000,
      100,
    );

    // A running bridge for Alexa: exposing an entity in HA adds it, un-exposing removes it, others keep their number.
    const expose = (entityIds: string[], shouldExpose: boolean) =>
      ha.admin.command({
        type: "homeassistant/expose_entity",
        assistants: ["cloud.alexa"],
        entity_ids: entityIds,
        should_expose: shouldExpose,
      });
    await expose([LIGHT, SWITCH, TEMPERATURE], false);
    const created = await call<BridgeRecord>("POST", "/api/matter/bridges", {
      name: "Alexa",
      port: await freeUdpPort(),
      filter: { include: [{ type: "exposed_to", value: "cloud.alexa" }] },
    });
    assert.equal(created.status, 201);
    const alexa = created.body;
    await waitForStatus(call, alexa.id, "running");
    const numbers = async () =>
      new Map([...(await devicesOf(call, alexa.id))].map(([id, row]) => [id, row.endpointNumber] as const));
    assert.equal((await numbers()).has(LIGHT), false);
    await expose([LIGHT], true);
    await eventually(async () => (await numbers()).has(LIGHT), 10_000, 100);
    const lightNumber = (await numbers()).get(LIGHT);
    await expose([SWITCH], true);
    await eventually(async () => (await numbers()).has(SWITCH), 10_000, 100);
    assert.equal((await numbers()).get(LIGHT), lightNumber, "the light kept its endpoint");
    await expose([LIGHT], false);
    await eventually(async () => !(await numbers()).has(LIGHT), 10_000, 100);
    assert.ok((await numbers()).has(SWITCH));
    assert.equal((await call("DELETE", `/api/matter/bridges/${alexa.id}`)).status, 204);
  });

  it("after HA is away for 10 s the hub reconnects, endpoints stay, reports resume", async () => {
    const before = (await call<{ connection: { reconnects: number } }>("GET", "/api/home-assistant/stats")).body;
    await ha.stop();
    const stoppedAt = Date.now();
    await eventually(async () => (await health()).body.services.homeAssistant.connected === false, 20_000, 100);
    timings.disconnectSeenMs = Date.now() - stoppedAt;
    labelInStorage(ha, SWITCH, INTEROP_LABEL);
    // A command while HA is away fails in time with a Matter error; it is not queued for later.
    const light = endpoints.get(LIGHT) as number;
    const sent = Date.now();
    await assert.rejects(chip.invoke("alpha", 30, light, "OnOff", "On"), (error: unknown) => {
      assert.ok(error instanceof ChipCallError && error.detail.type === "InteractionModelError", String(error));
      return true;
    });
    timings.commandWhileAwayMs = Date.now() - sent;
    // The outage the issue asks for: 10 s with HA gone.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 10_000 - (Date.now() - stoppedAt))));
    const t = Date.now();
    await ha.restart();
    timings.haRestartMs = Date.now() - t;
    const back = Date.now();
    await eventually(
      async () => {
        const stats = (await call<{ connected: boolean; connection: { reconnects: number } }>("GET", "/api/home-assistant/stats"))
          .body;
        return stats.connected && stats.connection.reconnects > before.connection.reconnects;
      },
      60_000,
      100,
    );
    timings.reconnectAfterHaRunningMs = Date.now() - back;
    assert.equal((await health()).status, 200);

    // The registries were read again: the label put on the switch while HA was down selects it now.
    const stored = await ha.admin.command<RegistryEntity>({ type: "config/entity_registry/get", entity_id: SWITCH });
    assert.deepEqual(stored.labels, [INTEROP_LABEL], "HA loaded the label from its storage");
    await eventually(async () => (await preview({ type: "label", value: INTEROP_LABEL })).join() === SWITCH, 10_000, 100);
    const rows = await devicesOf(call, bridge.id);
    const now = new Map([...rows.values()].filter((r) => r.endpointNumber !== null).map((r) => [r.entityId, r.endpointNumber]));
    assert.deepEqual(now, endpoints, "every exposed entity keeps its endpoint");
    const record = await waitForStatus(call, bridge.id, "running");
    assert.equal(record.commissioning.fabrics.length, 1, "the controller's fabric is still there");

    assert.equal((await ha.state(LIGHT)).state, "off", "the refused command did not run later");
    // Reports on the subscription made before the outage, both ways.
    const since = chip.events.length;
    await ha.rest("POST", "/api/services/light/turn_on", { entity_id: LIGHT });
    await chip.waitForReport({ endpoint: light, cluster: "OnOff", attribute: "OnOff" }, (v) => v === true, { since });
    assert.ok(chip.events.slice(since).every((e) => e.event !== "report" || e.subscription === subscription));
    await chip.invoke("alpha", 30, light, "OnOff", "Off");
    await ha.waitForState(LIGHT, (state) => state.state === "off");
  });

  it("with its token revoked the hub reports a clear error and does not retry in a loop", async () => {
    const failedLogins = () => ha.log().split("Login attempt or request with invalid authentication").length - 1;
    const loginsBefore = failedLogins();
    const t = Date.now();
    await ha.revokeToken(HUB_TOKEN);
    const refused = await eventually(
      async () => {
        const response = await health();
        return response.status === 503 ? response : undefined;
      },
      20_000,
      100,
    );
    timings.revocationSeenMs = Date.now() - t;
    assert.equal(refused.body.status, "unhealthy");
    assert.equal(refused.body.services.homeAssistant.connected, false);
    assert.match(refused.body.services.homeAssistant.error ?? "", /no longer accepts the access token.*revoked.*restart/);
    const ready = await call<{ error: string }>("GET", "/api/health/ready");
    assert.equal(ready.status, 503);
    assert.match(ready.body.error, /token/i);

    // Over a window longer than the client's longest reconnect back-off (5 s): no new attempt reaches HA.
    const attempts = failedLogins() - loginsBefore;
    assert.ok(attempts <= 1, `${attempts} refused logins before the hub gave up`);
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    assert.equal(failedLogins() - loginsBefore, attempts, "the hub tried again after giving up");
    assert.equal((await call("GET", "/api/health/live")).status, 200);
    assert.equal((await health()).body.services.homeAssistant.error, refused.body.services.homeAssistant.error);
    assert.equal((await waitForStatus(call, bridge.id, "running")).id, bridge.id, "the bridge keeps running");
  });
});
