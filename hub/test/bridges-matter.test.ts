import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import type { HaSimulator } from "../../simulators/home-assistant/index.ts";
import {
  type api,
  type BridgeRecord,
  devicesOf,
  type NodeId,
  startBridgeWorld,
  startController,
  waitForStatus,
} from "./support/bridge-fixture.ts";
import type { TestController } from "./support/matter-controller.ts";
import { freeUdpPort } from "./support/matter-fixtures.ts";
import { eventually, type TestHub } from "./support/test-context.ts";

/** One entity per mapped domain family; each row: the main command and the HA call it must become. */
const ENTITIES = [
  "light.dining_pendant",
  "light.kitchen_spots",
  "switch.garden_pump",
  "input_boolean.guest_mode",
  "button.restart_router",
  "scene.movie_night",
  "script.goodnight",
  "automation.vacation_lights",
  "cover.living_room_blinds",
  "lock.front_door",
  "lock.back_door",
  "climate.bedroom_radiator",
  "fan.office_desk_fan",
  "sensor.living_room_sensor_temperature",
  "sensor.living_room_sensor_humidity",
  "sensor.living_room_sensor_pressure",
  "sensor.hallway_motion_illuminance",
  "sensor.office_air_quality_carbon_dioxide",
  "binary_sensor.front_door_contact",
  "binary_sensor.hallway_motion",
  "binary_sensor.kitchen_leak",
  "binary_sensor.hallway_smoke",
  "media_player.bedroom_speaker",
  "vacuum.roborock_s8",
  "valve.garden_irrigation",
  "humidifier.laundry_dehumidifier",
  "input_select.house_mode",
  "alarm_control_panel.home_alarm",
  "light.garden_spotlight",
  "light.bedside_lamp",
  "light.floor_lamp",
];

describe("Matter bridges end to end (controller ↔ bridge ↔ Home Assistant)", { timeout: 240_000 }, () => {
  let sim: HaSimulator;
  let hub: TestHub;
  let call: ReturnType<typeof api>;
  let controller: TestController;
  let closeController: () => Promise<void>;
  let bridge: BridgeRecord;
  let nodeId: NodeId;
  let endpoints: Map<string, number>;

  before(async () => {
    assertNetworkIsolated();
    ({ sim, hub, call } = await startBridgeWorld());
    ({ controller, close: closeController } = await startController());
    const port = await freeUdpPort();
    const created = await call<BridgeRecord>("POST", "/api/matter/bridges", {
      name: "Test bridge",
      port,
      filter: { include: ENTITIES.map((value) => ({ type: "entity_id", value })) },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    bridge = await waitForStatus(call, created.body.id, "running");
    nodeId = await controller.commission(bridge.commissioning.manualPairingCode, { ip: "::1", port });
    const devices = await devicesOf(call, bridge.id);
    endpoints = new Map(
      [...devices].filter(([, d]) => d.endpointNumber !== null).map(([id, d]) => [id, d.endpointNumber as number]),
    );
  });
  after(async () => {
    await closeController?.();
    await hub?.stop();
    await sim?.close();
  });

  const ep = (entityId: string) => {
    const number = endpoints.get(entityId);
    assert.ok(number, `${entityId} is exposed`);
    return number;
  };
  const expectCall = async (domain: string, service: string, entityId: string, run: () => Promise<unknown>) => {
    sim.clearCalls();
    await run();
    const recorded = await sim.waitForCall(
      (c) => c.domain === domain && c.service === service && c.entityIds.includes(entityId),
      5000,
    );
    return recorded.serviceData;
  };

  it("exposes the filtered entities under the aggregator, with a reason for the skipped ones", async () => {
    const record = (await call<BridgeRecord>("GET", `/api/matter/bridges/${bridge.id}`)).body;
    assert.equal(record.commissioning.commissioned, true);
    assert.equal(record.commissioning.fabrics.length, 1);
    assert.equal(record.commissioning.fabrics[0]?.label, "test controller");
    const parts = await controller.partsList(nodeId, 1);
    assert.deepEqual(
      [...parts].sort((a, b) => a - b),
      [...endpoints.values()].sort((a, b) => a - b),
    );
    assert.equal(record.deviceCount, endpoints.size);
    const devices = await devicesOf(call, bridge.id);
    assert.match(devices.get("alarm_control_panel.home_alarm")?.skipped ?? "", /security plugin|alarm/i);
    assert.equal(devices.get("light.garden_spotlight")?.reachable, false, "unavailable in HA → unreachable");
    assert.equal(
      await controller.read(nodeId, ep("light.garden_spotlight"), "bridgedDeviceBasicInformation", "reachable"),
      false,
    );
  });

  it("gives every exposed device the Matter device type of its mapping", async () => {
    const codes: Record<string, number> = {
      on_off_light: 0x0100,
      dimmable_light: 0x0101,
      color_temperature_light: 0x010c,
      extended_color_light: 0x010d,
      on_off_plugin_unit: 0x010a,
      temperature_sensor: 0x0302,
      humidity_sensor: 0x0307,
      pressure_sensor: 0x0305,
      light_sensor: 0x0106,
      occupancy_sensor: 0x0107,
      contact_sensor: 0x0015,
      air_quality_sensor: 0x002c,
      thermostat: 0x0301,
      door_lock: 0x000a,
      fan: 0x002b,
      window_covering: 0x0202,
      water_leak_detector: 0x0043,
      smoke_co_alarm: 0x0076,
      robotic_vacuum_cleaner: 0x0074,
      speaker: 0x0022,
      water_valve: 0x0042,
      mode_select: 0x0027,
    };
    const devices = await devicesOf(call, bridge.id);
    const expected: Record<string, string> = {
      "switch.garden_pump": "on_off_plugin_unit",
      // 0x010C (Matter Device Library §4.3), not the plugin specification's 0x0102 (docs/decisions.md).
      "light.floor_lamp": "color_temperature_light",
      "light.bedside_lamp": "extended_color_light",
      "cover.living_room_blinds": "window_covering",
      "lock.back_door": "door_lock",
      "climate.bedroom_radiator": "thermostat",
      "sensor.living_room_sensor_temperature": "temperature_sensor",
      "binary_sensor.front_door_contact": "contact_sensor",
      "binary_sensor.hallway_motion": "occupancy_sensor",
      "binary_sensor.kitchen_leak": "water_leak_detector",
      "vacuum.roborock_s8": "robotic_vacuum_cleaner",
      "valve.garden_irrigation": "water_valve",
      "input_select.house_mode": "mode_select",
    };
    for (const [entityId, key] of Object.entries(expected)) assert.equal(devices.get(entityId)?.deviceType, key, entityId);
    for (const [entityId, device] of devices) {
      if (!device.deviceType || device.endpointNumber === null || !(device.deviceType in codes)) continue;
      const deviceTypes = await controller.deviceTypes(nodeId, device.endpointNumber);
      assert.ok(
        deviceTypes.includes(codes[device.deviceType] as number),
        `${entityId} (${device.deviceType}): ${deviceTypes.map((t) => t.toString(16))}`,
      );
      assert.ok(deviceTypes.includes(0x0013), `${entityId} is a Bridged Node`);
    }
  });

  it("turns on/off commands into service calls for every on/off domain", async () => {
    const rows: [string, string, string, "on" | "off"][] = [
      ["light.kitchen_spots", "light", "turn_on", "on"],
      ["switch.garden_pump", "switch", "turn_on", "on"],
      ["input_boolean.guest_mode", "input_boolean", "turn_on", "on"],
      ["button.restart_router", "button", "press", "on"],
      ["scene.movie_night", "scene", "turn_on", "on"],
      ["script.goodnight", "script", "turn_on", "on"],
      ["automation.vacation_lights", "automation", "trigger", "on"],
      ["media_player.bedroom_speaker", "media_player", "turn_off", "off"],
      ["humidifier.laundry_dehumidifier", "humidifier", "turn_on", "on"],
    ];
    for (const [entityId, domain, service, command] of rows) {
      await expectCall(domain, service, entityId, () => controller.invoke(nodeId, ep(entityId), "onOff", command));
    }
  });

  it("OnWithRecallGlobalScene after OffWithEffect presses a button once (the recalled scene and the On are one press)", async () => {
    const button = ep("button.restart_router");
    await controller.invoke(nodeId, button, "onOff", "on");
    // While the press still shows on, OffWithEffect stores the global scene (on) and clears GlobalSceneControl.
    await controller.invoke(nodeId, button, "onOff", "offWithEffect", { effectIdentifier: 0, effectVariant: 0 });
    sim.clearCalls();
    await controller.invoke(nodeId, button, "onOff", "onWithRecallGlobalScene");
    await sim.waitForCall((c) => c.service === "press" && c.entityIds.includes("button.restart_router"), 5000);
    // A second press would have been sent in the same command, before its answer.
    assert.deepEqual(
      sim.calls.map((c) => `${c.domain}.${c.service}`),
      ["button.press"],
    );
  });

  it("sets a light's level in one call, and reports HA's state changes to the controller", async () => {
    const data = await expectCall("light", "turn_on", "light.dining_pendant", () =>
      controller.invoke(nodeId, ep("light.dining_pendant"), "levelControl", "moveToLevelWithOnOff", {
        level: 127,
        transitionTime: null,
        optionsMask: {},
        optionsOverride: {},
      }),
    );
    assert.ok(Math.abs(Number(data.brightness) - 127) <= 2, `brightness ${String(data.brightness)}`);
    const off = controller.waitForAttribute(nodeId, ep("light.dining_pendant"), "onOff", "onOff", (v) => v === false);
    sim.setState("light.dining_pendant", "off");
    assert.equal(await off, false);
  });

  it("moves covers with Matter's inverted percentages, both ways", async () => {
    const data = await expectCall("cover", "set_cover_position", "cover.living_room_blinds", () =>
      controller.invoke(nodeId, ep("cover.living_room_blinds"), "windowCovering", "goToLiftPercentage", {
        liftPercent100thsValue: 2500,
      }),
    );
    assert.equal(data.position, 75, "Matter 25 % closed = HA 75 % open");
    const report = controller.waitForAttribute(
      nodeId,
      ep("cover.living_room_blinds"),
      "windowCovering",
      "currentPositionLiftPercent100ths",
      (v) => v === 6000,
    );
    sim.setState("cover.living_room_blinds", "open", { current_position: 40 });
    assert.equal(await report, 6000);
  });

  it("unlocks and locks, passing the PIN as HA's code where the lock wants one, and reports the lock state", async () => {
    const seen: string[] = [];
    const off = await controller.onAttribute(nodeId, (r) => {
      if (r.endpoint === ep("lock.front_door")) seen.push(`${r.attribute}=${JSON.stringify(r.value)}`);
    });
    assert.equal(await controller.read(nodeId, ep("lock.front_door"), "doorLock", "lockState"), 1, "HA says locked");
    await expectCall("lock", "unlock", "lock.front_door", () =>
      controller.invoke(nodeId, ep("lock.front_door"), "doorLock", "unlockDoor", {}),
    );
    await eventually(async () => sim.getState("lock.front_door")?.state === "unlocked");
    await eventually(async () => (await controller.read(nodeId, ep("lock.front_door"), "doorLock", "lockState")) === 2, 5000);
    const report = controller.waitForAttribute(nodeId, ep("lock.front_door"), "doorLock", "lockState", (v) => v === 1);
    sim.setState("lock.front_door", "locked");
    assert.equal(
      await report.catch(async (error: Error) => {
        const now = await controller.read(nodeId, ep("lock.front_door"), "doorLock", "lockState");
        throw new Error(
          `${error.message}; lockState now ${String(now)}, HA ${sim.getState("lock.front_door")?.state}, seen ${seen.join(",")}; eps ${ep("lock.front_door")}/${ep("lock.back_door")} back=${sim.getState("lock.back_door")?.state}; log: ${hub
            .logLines()
            .filter((l) => l.includes("front_door"))
            .slice(-5)
            .join(" | ")}`,
        );
      }),
      1,
    );
    const data = await expectCall("lock", "lock", "lock.back_door", () =>
      controller.invoke(nodeId, ep("lock.back_door"), "doorLock", "lockDoor", { pinCode: new TextEncoder().encode("1234") }),
    );
    assert.equal(data.code, "1234");
    off();
  });

  it("raises a thermostat setpoint and reports the room temperature", async () => {
    const before = sim.getState("climate.bedroom_radiator")?.attributes.temperature as number;
    const data = await expectCall("climate", "set_temperature", "climate.bedroom_radiator", () =>
      controller.invoke(nodeId, ep("climate.bedroom_radiator"), "thermostat", "setpointRaiseLower", { mode: 0, amount: 10 }),
    );
    assert.equal(data.temperature, before + 1);
    const report = controller.waitForAttribute(
      nodeId,
      ep("climate.bedroom_radiator"),
      "thermostat",
      "localTemperature",
      (v) => v === 1950,
    );
    sim.setState("climate.bedroom_radiator", "heat", { current_temperature: 19.5 });
    assert.equal(await report, 1950);
  });

  it("sets a fan's speed from a controller write and reports HA's percentage", async () => {
    const data = await expectCall("fan", "set_percentage", "fan.office_desk_fan", () =>
      controller.write(nodeId, ep("fan.office_desk_fan"), "fanControl", "percentSetting", 100),
    );
    assert.equal(data.percentage, 100);
    const report = controller.waitForAttribute(nodeId, ep("fan.office_desk_fan"), "fanControl", "percentCurrent", (v) => v === 0);
    sim.setState("fan.office_desk_fan", "off", { percentage: 0 });
    assert.equal(await report, 0);
  });

  it("reports sensors in Matter units", async () => {
    const cases: [string, string, string, string, Record<string, unknown>, unknown][] = [
      ["sensor.living_room_sensor_temperature", "temperatureMeasurement", "measuredValue", "23.45", {}, 2345],
      ["sensor.living_room_sensor_humidity", "relativeHumidityMeasurement", "measuredValue", "55.5", {}, 5550],
      ["sensor.living_room_sensor_pressure", "pressureMeasurement", "measuredValue", "1000", {}, 1000],
      ["sensor.hallway_motion_illuminance", "illuminanceMeasurement", "measuredValue", "1000", {}, 30001],
      ["binary_sensor.front_door_contact", "booleanState", "stateValue", "on", {}, false],
      ["binary_sensor.hallway_motion", "occupancySensing", "occupancy", "on", {}, { occupied: true }],
      ["binary_sensor.kitchen_leak", "booleanState", "stateValue", "on", {}, true],
    ];
    for (const [entityId, cluster, attribute, state, attributes, expected] of cases) {
      const report = controller.waitForAttribute(
        nodeId,
        ep(entityId),
        cluster,
        attribute,
        (v) => JSON.stringify(v) === JSON.stringify(expected),
      );
      sim.setState(entityId, state, attributes);
      assert.deepEqual(JSON.parse(JSON.stringify(await report)), expected, entityId);
    }
  });

  it("drives valves, vacuums and mode selects", async () => {
    await expectCall("valve", "open_valve", "valve.garden_irrigation", () =>
      controller.invoke(nodeId, ep("valve.garden_irrigation"), "valveConfigurationAndControl", "open", {}),
    );
    const modes = (await controller.read(nodeId, ep("input_select.house_mode"), "modeSelect", "supportedModes")) as {
      label: string;
      mode: number;
    }[];
    const current = await controller.read(nodeId, ep("input_select.house_mode"), "modeSelect", "currentMode");
    const target = modes.find((m) => m.mode !== current)!;
    const data = await expectCall("input_select", "select_option", "input_select.house_mode", () =>
      controller.invoke(nodeId, ep("input_select.house_mode"), "modeSelect", "changeToMode", { newMode: target.mode }),
    );
    assert.equal(data.option, target.label);
    await expectCall("vacuum", "return_to_base", "vacuum.roborock_s8", async () => {
      sim.setState("vacuum.roborock_s8", "cleaning");
      await new Promise((resolve) => setTimeout(resolve, 200));
      await controller.invoke(nodeId, ep("vacuum.roborock_s8"), "rvcOperationalState", "goHome");
    });
  });

  it("fails the controller's command when Home Assistant refuses the call", async () => {
    sim.setServiceBehavior({ fail: { code: "home_assistant_error", message: "Device offline" } });
    try {
      await assert.rejects(controller.invoke(nodeId, ep("switch.garden_pump"), "onOff", "off"));
    } finally {
      sim.setServiceBehavior(undefined);
    }
    // The attribute went back to HA's state (still on).
    assert.equal(
      await controller.read(nodeId, ep("switch.garden_pump"), "onOff", "onOff"),
      sim.getState("switch.garden_pump")?.state === "on",
    );
  });

  it("keeps endpoint numbers through a rename, leaving and re-entering the filter, and a mapping change", async () => {
    const before = ep("switch.garden_pump");
    // Rename: the filter follows the new id.
    await call("PUT", `/api/matter/bridges/${bridge.id}`, {
      filter: { include: [...ENTITIES, "switch.garden_pump_renamed"].map((value) => ({ type: "entity_id", value })) },
    });
    sim.updateEntity("switch.garden_pump", { entity_id: "switch.garden_pump_renamed" });
    await eventually(async () => (await devicesOf(call, bridge.id)).get("switch.garden_pump_renamed")?.endpointNumber === before);
    sim.updateEntity("switch.garden_pump_renamed", { entity_id: "switch.garden_pump" });
    await eventually(async () => (await devicesOf(call, bridge.id)).get("switch.garden_pump")?.endpointNumber === before);
    // Out of the filter and back.
    await call("PUT", `/api/matter/bridges/${bridge.id}`, {
      filter: { include: ENTITIES.filter((e) => e !== "switch.garden_pump").map((value) => ({ type: "entity_id", value })) },
    });
    await eventually(async () => !(await devicesOf(call, bridge.id)).has("switch.garden_pump"));
    await call("PUT", `/api/matter/bridges/${bridge.id}`, {
      filter: { include: ENTITIES.map((value) => ({ type: "entity_id", value })) },
    });
    await eventually(async () => (await devicesOf(call, bridge.id)).get("switch.garden_pump")?.endpointNumber === before);
    // A mapping change (plug → light) keeps the number too.
    const mapped = await call("PUT", `/api/entity-mappings/${bridge.id}/switch.garden_pump`, {
      matterDeviceType: "on_off_light",
      customName: "Pump",
    });
    assert.equal(mapped.status, 200);
    await eventually(async () => (await devicesOf(call, bridge.id)).get("switch.garden_pump")?.deviceType === "on_off_light");
    assert.equal((await devicesOf(call, bridge.id)).get("switch.garden_pump")?.endpointNumber, before);
    assert.ok((await controller.deviceTypes(nodeId, before)).includes(0x0100));
    assert.equal(await controller.read(nodeId, before, "bridgedDeviceBasicInformation", "nodeLabel"), "Pump");
  });

  it("restarts the hub: the controller reads and commands again without pairing, same endpoint numbers", async () => {
    const dataDir = hub.dataDir;
    await hub.stop({ keepData: true });
    ({ hub, call } = await startBridgeWorld({ dataDir, sim }));
    const record = await waitForStatus(call, bridge.id, "running");
    assert.equal(record.commissioning.commissioned, true);
    const after = await devicesOf(call, bridge.id);
    for (const [entityId, number] of endpoints) assert.equal(after.get(entityId)?.endpointNumber, number, entityId);
    await expectCall("switch", "turn_on", "switch.garden_pump", () =>
      controller.invoke(nodeId, ep("switch.garden_pump"), "onOff", "on"),
    );
    const report = controller.waitForAttribute(
      nodeId,
      ep("sensor.living_room_sensor_temperature"),
      "temperatureMeasurement",
      "measuredValue",
      (v) => v === 1800,
      20_000,
    );
    sim.setState("sensor.living_room_sensor_temperature", "18");
    assert.equal(await report, 1800);
  });
});
