import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Endpoint } from "@matter/main";
import { DEMO_FIXTURES } from "../../../test/support/devices/demo-home.ts";
import { createTestBridge, snapshot, type TestBridge } from "../../../test/support/devices/device-harness.ts";
import { cutUtf8 } from "../matter-strings.ts";
import { DEVICE_TYPE_KEYS, type DeviceTypeKey } from "../model/contract.ts";
import { mapEntity } from "./domain-table.ts";
import { createDeviceEndpoint, defaultUniqueId, sameValue, updateDeviceEndpoint } from "./endpoint-types.ts";

/** Server clusters (behavior ids) each key must expose, besides descriptor and the bridged basic information. */
const CLUSTERS: Record<DeviceTypeKey, string[]> = {
  on_off_light: ["groups", "identify", "onOff", "scenesManagement"],
  dimmable_light: ["groups", "identify", "levelControl", "onOff", "scenesManagement"],
  color_temperature_light: ["colorControl", "groups", "identify", "levelControl", "onOff", "scenesManagement"],
  extended_color_light: ["colorControl", "groups", "identify", "levelControl", "onOff", "scenesManagement"],
  on_off_plugin_unit: ["groups", "identify", "onOff", "scenesManagement"],
  dimmable_plug_in_unit: ["groups", "identify", "levelControl", "onOff", "scenesManagement"],
  temperature_sensor: ["identify", "temperatureMeasurement"],
  humidity_sensor: ["identify", "relativeHumidityMeasurement"],
  pressure_sensor: ["identify", "pressureMeasurement"],
  flow_sensor: ["flowMeasurement", "identify"],
  light_sensor: ["identify", "illuminanceMeasurement"],
  occupancy_sensor: ["identify", "occupancySensing"],
  contact_sensor: ["booleanState", "identify"],
  air_quality_sensor: ["airQuality", "identify"],
  thermostat: ["identify", "thermostat", "thermostatUserInterfaceConfiguration"],
  door_lock: ["doorLock", "identify"],
  fan: ["fanControl", "groups", "identify", "onOff"],
  air_purifier: ["fanControl", "identify", "onOff"],
  window_covering: ["identify", "windowCovering"],
  generic_switch: ["identify", "switch"],
  water_leak_detector: ["booleanState", "identify"],
  smoke_co_alarm: ["identify", "smokeCoAlarm"],
  robotic_vacuum_cleaner: ["identify", "rvcOperationalState", "rvcRunMode"],
  speaker: ["levelControl", "onOff"],
  water_valve: ["identify", "valveConfigurationAndControl"],
  mode_select: ["modeSelect"],
  humidifier: ["fanControl", "groups", "identify", "onOff", "relativeHumidityMeasurement"],
  on_off_sensor: ["identify", "onOff"],
  // A power meter alone (the demo fixture); an energy sensor adds electricalEnergyMeasurement (facets/electrical-facet.ts).
  electrical_sensor: ["electricalPowerMeasurement", "powerTopology"],
  water_heater: ["identify", "thermostat", "waterHeaterManagement", "waterHeaterMode"],
};

/** Concentration clusters an air quality sensor adds for its pollutant. */
const POLLUTANT_CLUSTER: Record<string, string> = {
  carbon_dioxide: "carbonDioxideConcentrationMeasurement",
  pm25: "pm25ConcentrationMeasurement",
  pm10: "pm10ConcentrationMeasurement",
  volatile_organic_compounds: "totalVolatileOrganicCompoundsConcentrationMeasurement",
};

function clusters(endpoint: Endpoint): string[] {
  const ignored = new Set(["descriptor", "haEntity", "bridgedDeviceBasicInformation"]);
  return Object.keys(endpoint.behaviors.supported)
    .filter((id) => !ignored.has(id))
    .sort();
}

describe("bring-up: every demo entity on a real bridge", () => {
  let bridge: TestBridge;
  const endpoints = new Map<string, Endpoint>();
  const supported = DEMO_FIXTURES.filter((fixture) => "key" in fixture.expected);

  before(async () => {
    bridge = await createTestBridge("bring-up");
    for (const { entity } of supported) {
      const decision = mapEntity(entity);
      assert.ok("key" in decision, entity.entityId);
      endpoints.set(entity.entityId, await bridge.add(decision.key, entity));
    }
    // Plus the keys only reachable by override.
    endpoints.set(
      "override:air_purifier",
      await bridge.add("air_purifier", snapshot("fan.purifier", "on", { supported_features: 8, preset_modes: ["auto"] })),
    );
    endpoints.set(
      "override:dimmable_plug_in_unit",
      await bridge.add(
        "dimmable_plug_in_unit",
        snapshot("light.plug", "on", { supported_color_modes: ["brightness"], brightness: 10 }),
      ),
    );
    const manyOptions = Array.from({ length: 300 }, (_, i) => `Station ${i + 1}`);
    endpoints.set("select:300", await bridge.add("mode_select", snapshot("select.radio", "Station 2", { options: manyOptions })));
    endpoints.set(
      "override:on_off_sensor",
      await bridge.add("on_off_sensor", snapshot("binary_sensor.pump", "on", { device_class: "running" })),
    );
    // And every key for an entity HA has not reported yet (registry entry only).
    for (const key of DEVICE_TYPE_KEYS) {
      endpoints.set(`stateless:${key}`, await bridge.add(key, snapshot(`unreported.${key}`, undefined)));
    }
    await bridge.start();
  });

  after(async () => {
    await bridge?.close();
  });

  for (const { entity, expected } of supported) {
    if (!("key" in expected)) continue;
    test(`${entity.entityId}: ${expected.key} (0x${expected.deviceType.toString(16)})`, () => {
      const endpoint = endpoints.get(entity.entityId);
      assert.ok(endpoint);
      const deviceTypes = endpoint.state.descriptor.deviceTypeList.map((entry) => Number(entry.deviceType));
      assert.ok(deviceTypes.includes(expected.deviceType), `device types ${deviceTypes}`);
      assert.ok(deviceTypes.includes(0x13), "bridged node");
      const pollutant = POLLUTANT_CLUSTER[String(entity.state?.attributes.device_class)];
      const expectedClusters = [
        ...CLUSTERS[expected.key],
        ...(expected.key === "air_quality_sensor" && pollutant ? [pollutant] : []),
      ];
      assert.deepEqual(clusters(endpoint), expectedClusters.sort());
      for (const [behavior, features] of Object.entries(expected.features ?? {})) {
        const flags = endpoint.featuresOf(behavior) as Record<string, boolean>;
        const enabled = Object.keys(flags).filter((name) => flags[name]);
        assert.deepEqual(enabled.sort(), [...features].sort(), `${behavior} features`);
      }
      const info = endpoint.stateOf("bridgedDeviceBasicInformation");
      assert.equal(info.reachable, true);
      assert.equal(info.uniqueId, defaultUniqueId(entity.entityId));
      assert.equal(info.nodeLabel, entity.name);
    });
  }

  test("override-only keys mount too", () => {
    assert.deepEqual(clusters(endpoints.get("override:air_purifier") as Endpoint), CLUSTERS.air_purifier);
    assert.deepEqual(clusters(endpoints.get("override:dimmable_plug_in_unit") as Endpoint), CLUSTERS.dimmable_plug_in_unit);
    const sensor = endpoints.get("override:on_off_sensor") as Endpoint;
    assert.deepEqual(clusters(sensor), CLUSTERS.on_off_sensor);
    assert.equal(sensor.stateOf("onOff").onOff, true);
  });

  test("entities HA has not reported yet still mount, unreachable", () => {
    const stateless = [...endpoints].filter(([id]) => id.startsWith("stateless:"));
    assert.equal(stateless.length, DEVICE_TYPE_KEYS.length);
    for (const [id, endpoint] of stateless) assert.equal(endpoint.stateOf("bridgedDeviceBasicInformation").reachable, false, id);
  });

  test("initial attributes come from the HA state, in Matter units", () => {
    const state = (id: string, behavior: string) => (endpoints.get(id) as Endpoint).stateOf(behavior) as Record<string, unknown>;
    assert.equal(state("light.living_room", "levelControl").currentLevel, 179);
    assert.equal(state("light.living_room", "colorControl").currentHue, 21);
    assert.equal(state("light.kitchen", "colorControl").colorTemperatureMireds, 250);
    assert.equal(state("light.hallway", "levelControl").currentLevel, 254, "off at creation: fixed default, not erased");
    assert.equal(state("cover.living_room_blinds", "windowCovering").currentPositionLiftPercent100ths, 3000);
    assert.equal(state("cover.living_room_blinds", "windowCovering").currentPositionTiltPercent100ths, 6000);
    assert.equal(state("cover.garage_door", "windowCovering").currentPositionLiftPercent100ths, 10_000);
    assert.equal(state("climate.living_room", "thermostat").occupiedHeatingSetpoint, 2000);
    assert.equal(state("climate.living_room", "thermostat").occupiedCoolingSetpoint, 2400);
    assert.equal(state("climate.living_room", "thermostat").localTemperature, 2150);
    assert.equal(state("sensor.attic_temperature", "temperatureMeasurement").measuredValue, 3700);
    assert.equal(state("sensor.outdoor_pressure", "pressureMeasurement").measuredValue, 1013);
    assert.equal(state("sensor.garden_illuminance", "illuminanceMeasurement").measuredValue, 30_001);
    assert.equal(state("sensor.living_room_co2", "carbonDioxideConcentrationMeasurement").measuredValue, 820);
    assert.equal(state("binary_sensor.front_door", "booleanState").stateValue, true, "door off = closed = contact");
    assert.equal(state("binary_sensor.kitchen_window", "booleanState").stateValue, false, "window on = open");
    assert.equal(state("fan.ceiling", "fanControl").speedSetting, 2);
    assert.equal(state("fan.ceiling", "fanControl").fanModeSequence, 2);
    assert.equal(state("select.heat_pump_mode", "modeSelect").currentMode, 0);
    assert.equal(state("media_player.living_room_speaker", "levelControl").currentLevel, 89);
  });

  test("re-sending the state every endpoint was built from writes nothing (no work for unchanged values)", async () => {
    for (const { entity } of supported) {
      const result = await updateDeviceEndpoint(endpoints.get(entity.entityId) as Endpoint, entity);
      assert.deepEqual(result, { changed: [], rebuild: false }, entity.entityId);
    }
  });

  test("updates write only changed attributes and nothing when nothing changed", async () => {
    const endpoint = endpoints.get("light.kitchen") as Endpoint;
    const fixture = supported.find((item) => item.entity.entityId === "light.kitchen");
    assert.ok(fixture?.entity.state);
    const same = await updateDeviceEndpoint(endpoint, fixture.entity);
    assert.deepEqual(same, { changed: [], rebuild: false });
    const brighter = snapshot("light.kitchen", "on", { ...fixture.entity.state.attributes, brightness: 200 });
    assert.deepEqual(await updateDeviceEndpoint(endpoint, brighter), { changed: ["levelControl.currentLevel"], rebuild: false });
    assert.equal(endpoint.stateOf("levelControl").currentLevel, 199);
    const off = snapshot("light.kitchen", "off", {
      supported_color_modes: ["color_temp"],
      ...fixture.entity.state.attributes,
      brightness: null,
    });
    assert.deepEqual((await updateDeviceEndpoint(endpoint, off)).changed, ["onOff.onOff"], "level kept while off");
  });

  test("unavailable makes the device unreachable and keeps its last values", async () => {
    const endpoint = endpoints.get("sensor.outdoor_temperature") as Endpoint;
    const result = await updateDeviceEndpoint(
      endpoint,
      snapshot("sensor.outdoor_temperature", "unavailable", { device_class: "temperature" }),
    );
    assert.deepEqual(result.changed, ["bridgedDeviceBasicInformation.reachable"]);
    assert.equal(endpoint.stateOf("temperatureMeasurement").measuredValue, 420);
    await updateDeviceEndpoint(
      endpoint,
      snapshot("sensor.outdoor_temperature", "5.5", { device_class: "temperature", unit_of_measurement: "°C" }),
    );
    assert.equal(endpoint.stateOf("bridgedDeviceBasicInformation").reachable, true);
    assert.equal(endpoint.stateOf("temperatureMeasurement").measuredValue, 550);
    await updateDeviceEndpoint(endpoint, snapshot("sensor.outdoor_temperature", "unknown", { device_class: "temperature" }));
    assert.equal(endpoint.stateOf("temperatureMeasurement").measuredValue, null, "unknown = no valid measurement");
  });

  test("a capability change asks for a rebuild; a renamed entity gets a new node label", async () => {
    const endpoint = endpoints.get("light.hallway") as Endpoint;
    const colour = snapshot("light.hallway", "off", {
      supported_color_modes: ["hs"],
      friendly_name: "Hallway ceiling light with a very long name",
    });
    const result = await updateDeviceEndpoint(endpoint, colour);
    assert.equal(result.rebuild, true);
    assert.equal(
      endpoint.stateOf("bridgedDeviceBasicInformation").nodeLabel,
      cutUtf8("Hallway ceiling light with a very long name"),
    );
    assert.equal(cutUtf8("Küche Deckenlicht über dem Esstisch"), "Küche Deckenlicht über dem Ess", "32 bytes, ü counts twice");
  });

  test("a select with more options than Matter's 255 modes shows the first 255; a later option keeps the mode", async () => {
    const endpoint = endpoints.get("select:300") as Endpoint;
    const modes = () => endpoint.stateOf("modeSelect") as { supportedModes: { label: string }[]; currentMode: number };
    assert.equal(modes().supportedModes.length, 255);
    assert.equal(modes().supportedModes[254]?.label, "Station 255");
    assert.equal(modes().currentMode, 1);
    const options = Array.from({ length: 300 }, (_, i) => `Station ${i + 1}`);
    await updateDeviceEndpoint(endpoint, snapshot("select.radio", "Station 280", { options }));
    assert.equal(modes().currentMode, 1, "option 280 cannot be shown: the mode stays");
    await updateDeviceEndpoint(endpoint, snapshot("select.radio", "Station 7", { options }));
    assert.equal(modes().currentMode, 6);
  });

  test("server mode: the device sits under the root without BridgedDeviceBasicInformation", async () => {
    const endpoint = await createDeviceEndpoint({
      id: "server-mode-lock",
      snapshot: snapshot("lock.server", "locked"),
      key: "door_lock",
      serverMode: true,
      actions: bridge.actions,
      unitSystem: { temperature: "°C" },
    });
    assert.equal(endpoint.behaviors.supported.bridgedDeviceBasicInformation, undefined);
    await bridge.node.add(endpoint);
    assert.ok(!endpoint.state.descriptor.deviceTypeList.some((entry) => entry.deviceType === 0x13), "not a bridged node");
    const result = await updateDeviceEndpoint(endpoint, snapshot("lock.server", "unavailable"));
    assert.deepEqual(result.changed, [], "no reachable attribute to flip");
    assert.deepEqual((await updateDeviceEndpoint(endpoint, snapshot("lock.server", "unlocked"))).changed, ["doorLock.lockState"]);
  });
});

describe("attribute comparison", () => {
  test("bitmaps compare bit by bit, a bit missing on one side is false; lists and scalars exactly", () => {
    assert.ok(sameValue({ heat: true, cool: false, fan: false, heatStage2: false }, { heat: true, cool: false, fan: false }));
    assert.ok(!sameValue({ heat: true, cool: false }, { heat: false }));
    assert.ok(!sameValue({ rockLeftRight: false }, { rockLeftRight: true }));
    assert.ok(!sameValue([{ mode: 0 }], [{ mode: 0 }, { mode: 1 }]));
    assert.ok(sameValue(null, null));
    assert.ok(!sameValue(null, 0));
    assert.ok(!sameValue(2150, 2151));
  });
});
