import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import type { HaSimulator } from "../../simulators/home-assistant/index.ts";
import type { NodeId } from "./support/bridge-fixture.ts";
import type { TestController } from "./support/matter-controller.ts";
import { startPairedBridge } from "./support/paired-bridge.ts";

const TANK = "water_heater.hot_water_tank";
const DEMO_MODES = ["eco", "electric", "performance", "high_demand", "heat_pump", "gas", "off"];

/**
 * The demo home's hot water tank on a bridge, commissioned by matter.js's controller: the Water Heater device type
 * as a controller reads it, HA's changes as reports, and the controller's commands as HA water_heater calls.
 */
describe("Matter bridges: a water heater read and driven by a controller", { timeout: 120_000 }, () => {
  let world: Awaited<ReturnType<typeof startPairedBridge>>;
  let sim: HaSimulator;
  let controller: TestController;
  let nodeId: NodeId;
  let tank: number;
  const haCalls = () =>
    sim.calls.filter((c) => c.entityIds.includes(TANK)).map((c) => `${c.service} ${JSON.stringify(c.serviceData)}`);

  before(async () => {
    assertNetworkIsolated();
    world = await startPairedBridge([TANK]);
    ({ sim, controller, nodeId } = world);
    tank = world.ep(TANK);
  });
  after(async () => {
    await world?.close();
  });

  it("is a Water Heater (0x050F) with HA's temperatures, limits and modes", async () => {
    assert.ok((await controller.deviceTypes(nodeId, tank)).includes(0x050f));
    const read = (cluster: string, attribute: string) => controller.read(nodeId, tank, cluster, attribute);
    assert.equal(await read("thermostat", "localTemperature"), 4850);
    assert.equal(await read("thermostat", "occupiedHeatingSetpoint"), 5200);
    assert.equal(await read("thermostat", "absMinHeatSetpointLimit"), 4330);
    assert.equal(await read("thermostat", "absMaxHeatSetpointLimit"), 6000);
    assert.equal(await read("thermostat", "systemMode"), 4, "Heat");
    const modes = (await read("waterHeaterMode", "supportedModes")) as { label: string; modeTags: { value: number }[] }[];
    assert.deepEqual(
      modes.map((mode) => mode.label),
      DEMO_MODES,
    );
    assert.deepEqual(
      modes[6]?.modeTags.map((tag) => tag.value),
      [0x4000],
      "off is the Off mode",
    );
    assert.deepEqual(
      modes[1]?.modeTags.map((tag) => tag.value),
      [0x4001],
      "electric is a Manual mode",
    );
    assert.equal(await read("waterHeaterMode", "currentMode"), 0, "eco");
    assert.equal(await read("waterHeaterManagement", "boostState"), 0);
  });

  it("reports HA's changes: a new water temperature, and high_demand as an active boost", async () => {
    const temperature = controller.waitForAttribute(nodeId, tank, "thermostat", "localTemperature", (v) => v === 5100);
    sim.setState(TANK, "eco", { current_temperature: 51 });
    assert.equal(await temperature, 5100);
    const boost = controller.waitForAttribute(nodeId, tank, "waterHeaterManagement", "boostState", (v) => v === 1);
    sim.setState(TANK, "high_demand", { operation_mode: "high_demand" });
    assert.equal(await boost, 1);
  });

  it("ChangeToMode, a setpoint write, Boost and CancelBoost become HA calls, and HA's new mode comes back", async () => {
    sim.clearCalls();
    const mode = controller.waitForAttribute(nodeId, tank, "waterHeaterMode", "currentMode", (v) => v === 4);
    const response = await controller.invoke(nodeId, tank, "waterHeaterMode", "changeToMode", { newMode: 4 });
    assert.equal((response as { status: number }).status, 0);
    assert.equal(await mode, 4, "heat_pump");
    assert.equal(sim.getState(TANK)?.state, "heat_pump");
    await controller.write(nodeId, tank, "thermostat", "occupiedHeatingSetpoint", 5550);
    assert.equal(sim.getState(TANK)?.attributes.temperature, 55.5);
    await controller.invoke(nodeId, tank, "waterHeaterManagement", "boost", { boostInfo: { duration: 3600 } });
    await controller.invoke(nodeId, tank, "waterHeaterManagement", "cancelBoost");
    assert.deepEqual(haCalls(), [
      'set_operation_mode {"operation_mode":"heat_pump"}',
      'set_temperature {"temperature":55.5}',
      'set_operation_mode {"operation_mode":"high_demand"}',
      'set_operation_mode {"operation_mode":"heat_pump"}',
    ]);
    assert.equal(sim.getState(TANK)?.state, "heat_pump");
  });

  it("refuses what HA cannot do without calling it: an unknown mode, a setpoint above max_temp", async () => {
    sim.clearCalls();
    const response = await controller.invoke(nodeId, tank, "waterHeaterMode", "changeToMode", { newMode: 42 });
    assert.equal((response as { status: number }).status, 1, "UnsupportedMode");
    await assert.rejects(controller.write(nodeId, tank, "thermostat", "occupiedHeatingSetpoint", 9000));
    assert.deepEqual(haCalls(), []);
    assert.equal(await controller.read(nodeId, tank, "thermostat", "occupiedHeatingSetpoint"), 5550);
  });
});
