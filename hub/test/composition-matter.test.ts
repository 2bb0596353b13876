import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import type { HaSimulator } from "../../simulators/home-assistant/index.ts";
import type { api, BridgeRecord, NodeId } from "./support/bridge-fixture.ts";
import type { TestController } from "./support/matter-controller.ts";
import { startPairedBridge } from "./support/paired-bridge.ts";
import { eventually } from "./support/test-context.ts";

/** Device type ids the endpoints must list (Matter device library). */
const ON_OFF_PLUG = 0x010a;
const CONTACT_SENSOR = 0x0015;
const ELECTRICAL_SENSOR = 0x0510;
const POWER_SOURCE = 0x0011;
const BRIDGED_NODE = 0x0013;

interface Row {
  entityId: string;
  deviceType: string | null;
  endpointNumber: number | null;
  composedInto: string | null;
  carries: { entityId: string; role: string; value: unknown; unit: string | null }[];
}

/**
 * Composed devices (issue 19) through a commissioned bridge and a real controller: the demo home's Shelly plug
 * carries its power, energy, voltage and current sensors, the front door contact its battery, the front lock its
 * battery level and battery-low sensor; values follow HA; composition off and on keeps every main endpoint's number.
 */
describe("composed devices: battery, power and energy on the device's endpoint", { timeout: 180_000 }, () => {
  let world: Awaited<ReturnType<typeof startPairedBridge>>;
  let sim: HaSimulator;
  let call: ReturnType<typeof api>;
  let controller: TestController;
  let bridge: BridgeRecord;
  let nodeId: NodeId;
  const rows = async () => {
    const response = await call<{ devices: Row[] }>("GET", `/api/matter/bridges/${bridge.id}/devices`);
    return new Map(response.body.devices.map((row) => [row.entityId, row]));
  };
  const read = (entityId: string, cluster: string, attribute: string) =>
    controller.read(nodeId, world.ep(entityId), cluster, attribute);

  before(async () => {
    assertNetworkIsolated();
    world = await startPairedBridge([
      "switch.coffee_machine",
      "sensor.coffee_machine_power",
      "binary_sensor.front_door_contact",
      "lock.front_door",
    ]);
    ({ sim, call, controller, bridge, nodeId } = world);
  });
  after(async () => {
    await world?.close();
  });

  it("shows each endpoint's main device type with the composed ones, and the companions as part of it", async () => {
    const plug = await controller.deviceTypes(nodeId, world.ep("switch.coffee_machine"));
    assert.deepEqual([...plug].sort(), [ON_OFF_PLUG, BRIDGED_NODE, ELECTRICAL_SENSOR].sort());
    const contact = await controller.deviceTypes(nodeId, world.ep("binary_sensor.front_door_contact"));
    assert.deepEqual([...contact].sort(), [CONTACT_SENSOR, BRIDGED_NODE, POWER_SOURCE].sort());
    const list = await rows();
    assert.equal(list.get("sensor.coffee_machine_power")?.composedInto, "switch.coffee_machine");
    assert.equal(list.get("sensor.coffee_machine_power")?.endpointNumber, null, "no endpoint of its own");
    const carried = list.get("switch.coffee_machine")?.carries.map((part) => `${part.role} ${part.value} ${part.unit}`);
    assert.deepEqual(carried?.sort(), ["current 0.742 A", "energy 48.213 kWh", "power 171.3 W", "voltage 231.4 V"]);
    const battery = list.get("binary_sensor.front_door_contact")?.carries;
    assert.deepEqual(battery, [{ entityId: "sensor.front_door_contact_battery", role: "battery", value: 76, unit: "%" }]);
  });

  it("reads battery, power and energy in Matter's units and sees them follow HA", async () => {
    assert.equal(await read("binary_sensor.front_door_contact", "powerSource", "batPercentRemaining"), 152);
    assert.deepEqual(await read("binary_sensor.front_door_contact", "powerSource", "endpointList"), [
      world.ep("binary_sensor.front_door_contact"),
    ]);
    assert.equal(await read("switch.coffee_machine", "electricalPowerMeasurement", "activePower"), 171_300);
    assert.equal(await read("switch.coffee_machine", "electricalPowerMeasurement", "voltage"), 231_400);
    assert.equal(await read("switch.coffee_machine", "electricalPowerMeasurement", "activeCurrent"), 742);
    const energy = (await read("switch.coffee_machine", "electricalEnergyMeasurement", "cumulativeEnergyImported")) as {
      energy: number | bigint;
    };
    assert.equal(Number(energy.energy), 48_213_000);

    sim.setState("sensor.front_door_contact_battery", "9");
    await eventually(async () => (await read("binary_sensor.front_door_contact", "powerSource", "batPercentRemaining")) === 18);
    assert.equal(await read("binary_sensor.front_door_contact", "powerSource", "batChargeLevel"), 2, "≤ 10 %: critical");
    sim.setState("sensor.coffee_machine_power", "1.2", { unit_of_measurement: "kW", device_class: "power" });
    await eventually(
      async () => (await read("switch.coffee_machine", "electricalPowerMeasurement", "activePower")) === 1_200_000,
    );
    sim.setState("sensor.coffee_machine_energy", "48.5");
    await eventually(async () => {
      const value = (await read("switch.coffee_machine", "electricalEnergyMeasurement", "cumulativeEnergyImported")) as {
        energy: number | bigint;
      };
      return Number(value.energy) === 48_500_000;
    });
    // The lock has a level (87 %) and a "battery critical" binary sensor. With the level unknown, the binary
    // sensor alone gives the charge level, and no percentage is shown.
    assert.equal(await read("lock.front_door", "powerSource", "batPercentRemaining"), 174);
    assert.equal(await read("lock.front_door", "powerSource", "batChargeLevel"), 0);
    sim.setState("sensor.front_door_lock_battery", "unknown");
    sim.setState("binary_sensor.front_door_lock_battery_critical", "on");
    await eventually(async () => (await read("lock.front_door", "powerSource", "batChargeLevel")) === 1);
    assert.equal(await read("lock.front_door", "powerSource", "batPercentRemaining"), null);
    const list = await rows();
    assert.equal(list.get("switch.coffee_machine")?.carries.find((part) => part.role === "power")?.value, 1.2);
  });

  it("turns bad readings into no value or leaves them out, never a wrong number", async () => {
    sim.setState("sensor.front_door_contact_battery", "unknown");
    await eventually(async () => (await read("binary_sensor.front_door_contact", "powerSource", "batPercentRemaining")) === null);
    sim.setState("sensor.coffee_machine_power", "-35", { unit_of_measurement: "W", device_class: "power" });
    await eventually(async () => (await read("switch.coffee_machine", "electricalPowerMeasurement", "activePower")) === null);
    // A counter going back (a reset meter) is left out: the controller keeps the last valid total.
    sim.setState("sensor.coffee_machine_energy", "3.1");
    sim.setState("sensor.coffee_machine_voltage", "229");
    await eventually(async () => (await read("switch.coffee_machine", "electricalPowerMeasurement", "voltage")) === 229_000);
    const energy = (await read("switch.coffee_machine", "electricalEnergyMeasurement", "cumulativeEnergyImported")) as {
      energy: number | bigint;
    };
    assert.equal(Number(energy.energy), 48_500_000);
  });

  it("keeps every main endpoint's number when composition is switched off and on again", async () => {
    const before = await rows();
    const number = (list: Map<string, Row>, id: string) => list.get(id)?.endpointNumber;
    const mains = ["switch.coffee_machine", "binary_sensor.front_door_contact", "lock.front_door"];
    const off = await call("PUT", `/api/matter/bridges/${bridge.id}`, { composeDevices: false });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    const plain = await eventually(async () => {
      const list = await rows();
      return list.get("sensor.coffee_machine_power")?.deviceType === "electrical_sensor" ? list : undefined;
    });
    for (const id of mains) assert.equal(number(plain, id), number(before, id), id);
    assert.deepEqual(plain.get("binary_sensor.front_door_contact")?.carries, []);
    const contact = await eventually(async () => {
      const types = await controller.deviceTypes(nodeId, world.ep("binary_sensor.front_door_contact"));
      return types.includes(POWER_SOURCE) ? undefined : types;
    });
    assert.deepEqual([...contact].sort(), [CONTACT_SENSOR, BRIDGED_NODE].sort());

    await call("PUT", `/api/matter/bridges/${bridge.id}`, { composeDevices: true });
    const again = await eventually(async () => {
      const list = await rows();
      return list.get("sensor.coffee_machine_power")?.composedInto ? list : undefined;
    });
    for (const id of mains) assert.equal(number(again, id), number(before, id), id);
    assert.equal(await read("binary_sensor.front_door_contact", "powerSource", "batPercentRemaining"), null);
  });

  it("exposes a detached companion on its own and takes it off its device's endpoint", async () => {
    const detached = await call("PUT", `/api/entity-mappings/${bridge.id}/sensor.coffee_machine_power`, { detached: true });
    assert.equal(detached.status, 200, JSON.stringify(detached.body));
    assert.equal((detached.body as { detached: boolean }).detached, true);
    const list = await eventually(async () => {
      const current = await rows();
      return current.get("sensor.coffee_machine_power")?.deviceType === "electrical_sensor" ? current : undefined;
    });
    const roles = list.get("switch.coffee_machine")?.carries.map((part) => part.role);
    assert.deepEqual(roles?.sort(), ["current", "energy", "voltage"]);
    const meter = list.get("sensor.coffee_machine_power")?.endpointNumber;
    assert.ok(meter);
    const types = await controller.deviceTypes(nodeId, meter);
    assert.ok(types.includes(ELECTRICAL_SENSOR), JSON.stringify(types));
    assert.equal(await controller.read(nodeId, meter, "electricalPowerMeasurement", "activePower"), null, "still -35 W");
    sim.setState("sensor.coffee_machine_power", "12", { unit_of_measurement: "W", device_class: "power" });
    await eventually(async () => (await controller.read(nodeId, meter, "electricalPowerMeasurement", "activePower")) === 12_000);
  });
});
