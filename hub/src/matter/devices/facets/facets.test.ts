import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Endpoint } from "@matter/main";
import { createTestBridge, snapshot, type TestBridge } from "../../../../test/support/devices/device-harness.ts";
import type { Companions } from "../../model/contract.ts";
import { updateDeviceEndpoint } from "../endpoint-types.ts";

const battery = (state: string) => snapshot("sensor.door_battery", state, { device_class: "battery", unit_of_measurement: "%" });
const low = (state: string) => snapshot("binary_sensor.door_battery_low", state, { device_class: "battery" });
const charging = (state: string) => snapshot("binary_sensor.phone_charging", state, { device_class: "battery_charging" });
const power = (state: string, unit = "W") =>
  snapshot("sensor.plug_power", state, { device_class: "power", unit_of_measurement: unit });
const energy = (state: string, unit = "kWh") =>
  snapshot("sensor.plug_energy", state, { device_class: "energy", unit_of_measurement: unit });

/** The plug's cumulative imported energy in mWh. */
const energyOf = (endpoint: Endpoint) =>
  (endpoint.stateOf("electricalEnergyMeasurement").cumulativeEnergyImported as { energy?: number } | null)?.energy;

/** The facets on real endpoints of a started (uncommissioned) bridge node: what each HA value becomes. */
describe("facets: battery and electrical values from companion entities", () => {
  let bridge: TestBridge;
  let door: Endpoint;
  let phone: Endpoint;
  let plug: Endpoint;
  const contact = snapshot("binary_sensor.door", "off", { device_class: "door" });
  const outlet = snapshot("switch.plug", "on");
  const phoneTracker = snapshot("binary_sensor.phone_home", "on", { device_class: "presence" });
  const update = (endpoint: Endpoint, main: typeof contact, companions: Companions) =>
    updateDeviceEndpoint(endpoint, main, companions);

  before(async () => {
    bridge = await createTestBridge("facets");
    door = await bridge.add("contact_sensor", contact, { companions: { battery: battery("84"), battery_low: low("off") } });
    phone = await bridge.add("occupancy_sensor", phoneTracker, {
      companions: { battery: battery("50"), battery_charging: charging("on") },
    });
    plug = await bridge.add("on_off_plugin_unit", outlet, { companions: { power: power("120.5"), energy: energy("3.4") } });
    await bridge.start();
  });
  after(async () => {
    await bridge?.close();
  });

  test("a battery becomes Power Source in half-percent, with the charge level, listing its own endpoint", () => {
    const source = door.stateOf("powerSource") as Record<string, unknown>;
    assert.equal(source.batPercentRemaining, 168);
    assert.equal(source.batChargeLevel, 0);
    assert.deepEqual(source.endpointList, [door.number]);
    assert.equal(source.batChargeState, undefined, "no Rechargeable feature without a charging sensor");
    assert.equal((phone.stateOf("powerSource") as Record<string, unknown>).batChargeState, 1, "IsCharging");
  });

  test("bad battery values give no value, never a wrong one", async () => {
    for (const [state, expected] of [
      ["unknown", null],
      ["unavailable", null],
      ["-5", null],
      ["180", null],
      ["full", null],
      ["15", 30],
    ] as const) {
      await update(door, contact, { battery: battery(state), battery_low: low("off") });
      assert.equal(door.stateOf("powerSource").batPercentRemaining, expected, state);
    }
    assert.equal(door.stateOf("powerSource").batChargeLevel, 1, "15 %: warning");
    await update(door, contact, { battery: battery("unknown"), battery_low: low("on") });
    assert.equal(door.stateOf("powerSource").batChargeLevel, 1, "battery low: warning");
  });

  test("power and energy in mW and mWh, the Electrical Sensor type beside the plug's own", async () => {
    const types = (plug.stateOf("descriptor").deviceTypeList as { deviceType: number }[]).map((entry) => entry.deviceType);
    assert.ok(types.includes(0x010a) && types.includes(0x0510), JSON.stringify(types));
    assert.equal(plug.stateOf("electricalPowerMeasurement").activePower, 120_500);
    assert.deepEqual(energyOf(plug), 3_400_000);
    await update(plug, outlet, { power: power("1.5", "kW"), energy: energy("3600", "Wh") });
    assert.equal(plug.stateOf("electricalPowerMeasurement").activePower, 1_500_000);
    assert.deepEqual(energyOf(plug), 3_600_000);
  });

  test("a negative or unknown power is null; an energy counter going back or unknown is left out", async () => {
    const events: unknown[] = [];
    plug.eventsOf("electricalEnergyMeasurement").cumulativeEnergyMeasured?.on((payload: unknown) => {
      events.push(payload);
    });
    await update(plug, outlet, { power: power("-40"), energy: energy("2.0") });
    assert.equal(plug.stateOf("electricalPowerMeasurement").activePower, null);
    assert.deepEqual(energyOf(plug), 3_600_000);
    await update(plug, outlet, { power: power("unknown"), energy: energy("unknown") });
    assert.equal(plug.stateOf("electricalPowerMeasurement").activePower, null);
    assert.deepEqual(energyOf(plug), 3_600_000);
    assert.deepEqual(events, [], "no energy event without a new total");
    await update(plug, outlet, { power: power("10", "BTU/h"), energy: energy("3.7") });
    assert.equal(plug.stateOf("electricalPowerMeasurement").activePower, null, "a unit the hub does not know");
    assert.deepEqual(energyOf(plug), 3_700_000);
    assert.equal(events.length, 1, "CumulativeEnergyMeasured for the new total");
  });

  test("a companion that appears or goes asks for a rebuild; one that changes value does not", async () => {
    const same = await update(door, contact, { battery: battery("70"), battery_low: low("off") });
    assert.equal(same.rebuild, false);
    const gone = await update(door, contact, {});
    assert.equal(gone.rebuild, true);
    const charger = await update(phone, phoneTracker, { battery: battery("50") });
    assert.equal(charger.rebuild, true, "the Rechargeable feature goes with the charging sensor");
  });
});
