import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Endpoint } from "@matter/main";
import { createTestBridge, snapshot, type TestBridge } from "../../../../test/support/devices/device-harness.ts";
import { updateDeviceEndpoint } from "../endpoint-types.ts";

const DEMO_MODES = ["eco", "electric", "performance", "high_demand", "heat_pump", "gas", "off"];
const tank = {
  operation_list: DEMO_MODES,
  operation_mode: "eco",
  current_temperature: 48.5,
  temperature: 55,
  min_temp: 40,
  max_temp: 65,
  supported_features: 1 + 2 + 4 + 8,
};

type Values = Record<string, unknown>;
/** Attribute values as plain JSON (matter.js hands out managed objects and bitmap classes). */
const stateOf = (endpoint: Endpoint, behavior: string) => JSON.parse(JSON.stringify(endpoint.stateOf(behavior))) as Values;

describe("water heater: HA state → Matter Water Heater attributes", () => {
  let bridge: TestBridge;
  const devices: Record<string, Endpoint> = {};

  before(async () => {
    bridge = await createTestBridge("water-heater-kind");
    devices.tank = await bridge.add("water_heater", snapshot("water_heater.tank", "eco", tank));
    devices.us = await bridge.add(
      "water_heater",
      snapshot("water_heater.us", "electric", {
        ...tank,
        operation_mode: "electric",
        temperature: 120,
        current_temperature: 110,
        min_temp: 100,
        max_temp: 140,
      }),
      { unit: "°F" },
    );
    // Bad input: no modes, text temperatures, limits the wrong way round, no features.
    devices.bare = await bridge.add(
      "water_heater",
      snapshot("water_heater.bare", "unknown", { temperature: "hot", current_temperature: "n/a", min_temp: 70, max_temp: 30 }),
    );
    devices.stateless = await bridge.add("water_heater", snapshot("water_heater.new", undefined));
    await bridge.start();
  });

  after(async () => {
    await bridge?.close();
  });

  test("device type 0x050F with Thermostat (Heating only), WaterHeaterMode and WaterHeaterManagement", () => {
    const tankEndpoint = devices.tank as Endpoint;
    const types = tankEndpoint.state.descriptor.deviceTypeList.map((entry) => Number(entry.deviceType));
    assert.ok(types.includes(0x050f), `device types ${types}`);
    const features = tankEndpoint.featuresOf("thermostat") as Record<string, boolean>;
    assert.deepEqual(
      Object.keys(features).filter((name) => features[name]),
      ["heating"],
    );
  });

  test("temperatures, limits, system mode, modes, heat sources and demand from the HA state", () => {
    const thermostat = stateOf(devices.tank as Endpoint, "thermostat");
    assert.equal(thermostat.localTemperature, 4850);
    assert.equal(thermostat.occupiedHeatingSetpoint, 5500);
    for (const name of ["absMinHeatSetpointLimit", "minHeatSetpointLimit"]) assert.equal(thermostat[name], 4000, name);
    for (const name of ["absMaxHeatSetpointLimit", "maxHeatSetpointLimit"]) assert.equal(thermostat[name], 6500, name);
    assert.equal(thermostat.systemMode, 4, "Heat");
    assert.equal(thermostat.controlSequenceOfOperation, 2, "HeatingOnly");
    const modes = stateOf(devices.tank as Endpoint, "waterHeaterMode");
    assert.deepEqual(
      (modes.supportedModes as { label: string }[]).map((mode) => mode.label),
      DEMO_MODES,
    );
    assert.equal(modes.currentMode, 0);
    const management = stateOf(devices.tank as Endpoint, "waterHeaterManagement");
    assert.deepEqual(management.heaterTypes, {
      immersionElement1: true,
      immersionElement2: false,
      heatPump: true,
      boiler: true,
      other: false,
    });
    assert.equal(management.boostState, 0);
    assert.equal((management.heatDemand as Values).heatPump, true, "eco, 48.5 below 55: every source may heat");
  });

  test("°F home: 120 °F target, 100-140 °F limits", () => {
    const thermostat = stateOf(devices.us as Endpoint, "thermostat");
    assert.equal(thermostat.occupiedHeatingSetpoint, 4889);
    assert.equal(thermostat.localTemperature, 4333);
    assert.equal(thermostat.minHeatSetpointLimit, 3778);
    assert.equal(thermostat.maxHeatSetpointLimit, 6000);
    assert.equal(stateOf(devices.us as Endpoint, "waterHeaterMode").currentMode, 1, "electric");
  });

  test("off, high_demand and back in HA: SystemMode Off, BoostState Active, then Heat and Inactive", async () => {
    const endpoint = devices.tank as Endpoint;
    await updateDeviceEndpoint(endpoint, snapshot("water_heater.tank", "off", { ...tank, operation_mode: "off" }));
    assert.equal(stateOf(endpoint, "thermostat").systemMode, 0);
    assert.equal(stateOf(endpoint, "waterHeaterMode").currentMode, 6);
    assert.deepEqual(stateOf(endpoint, "waterHeaterManagement").heatDemand, {
      immersionElement1: false,
      immersionElement2: false,
      heatPump: false,
      boiler: false,
      other: false,
    });
    await updateDeviceEndpoint(
      endpoint,
      snapshot("water_heater.tank", "high_demand", { ...tank, operation_mode: "high_demand" }),
    );
    assert.equal(stateOf(endpoint, "thermostat").systemMode, 4);
    assert.equal(stateOf(endpoint, "waterHeaterManagement").boostState, 1);
    await updateDeviceEndpoint(endpoint, snapshot("water_heater.tank", "eco", tank));
    assert.equal(stateOf(endpoint, "waterHeaterManagement").boostState, 0);
  });

  test("bad input: no modes, text temperatures, swapped limits and an unknown state give Off/On modes, no values", () => {
    const bare = devices.bare as Endpoint;
    const thermostat = stateOf(bare, "thermostat");
    assert.equal(thermostat.localTemperature, null, "'n/a' is no temperature");
    assert.equal(thermostat.minHeatSetpointLimit, 3000);
    assert.equal(thermostat.maxHeatSetpointLimit, 7000);
    assert.equal(thermostat.occupiedHeatingSetpoint, 5000, "'hot' is no setpoint: the middle of the range stays");
    const modes = stateOf(bare, "waterHeaterMode");
    assert.deepEqual(
      (modes.supportedModes as { label: string; modeTags: { value: number }[] }[]).map((mode) => [mode.label, mode.modeTags]),
      [
        ["Off", [{ value: 0x4000 }]],
        ["On", [{ value: 0x4001 }]],
      ],
    );
    assert.equal(modes.currentMode, 1, "a water heater is taken to be on until HA says otherwise");
    const stateless = devices.stateless as Endpoint;
    assert.equal(stateless.stateOf("bridgedDeviceBasicInformation").reachable, false);
    assert.equal(stateOf(stateless, "thermostat").minHeatSetpointLimit, 4333, "HA's default 110 °F");
  });

  test("a new operation list replaces the modes; an unlisted mode keeps the current one", async () => {
    const endpoint = devices.us as Endpoint;
    const next = { ...tank, operation_list: ["electric", "off"], operation_mode: "off" };
    await updateDeviceEndpoint(endpoint, snapshot("water_heater.us", "off", next));
    const modes = stateOf(endpoint, "waterHeaterMode");
    assert.equal((modes.supportedModes as unknown[]).length, 2);
    assert.equal(modes.currentMode, 1);
    await updateDeviceEndpoint(endpoint, snapshot("water_heater.us", "turbo", { ...next, operation_mode: "turbo" }));
    assert.equal(stateOf(endpoint, "waterHeaterMode").currentMode, 1);
    // A mode number the old list did not have, in the same update as the new list.
    const longer = { ...next, operation_list: ["a", "b", "c", "electric"], operation_mode: "electric" };
    await updateDeviceEndpoint(endpoint, snapshot("water_heater.us", "electric", longer));
    assert.equal(stateOf(endpoint, "waterHeaterMode").currentMode, 3);
  });
});
