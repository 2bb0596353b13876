import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { BridgeDeviceInfo, CarriedPart } from "../api/types.ts";
import { carriedText, formatReading, partText, withParts } from "./carried.ts";

const part = (role: CarriedPart["role"], value: CarriedPart["value"], unit: string | null = null): CarriedPart => ({
  entityId: `sensor.x_${role}`,
  role,
  value,
  unit,
});

describe("what an endpoint carries, as the device list says it", () => {
  it("formats readings with the decimals they need", () => {
    assert.equal(formatReading(171.3, "en"), "171");
    assert.equal(formatReading(48.213, "en"), "48.2");
    assert.equal(formatReading(0.742, "en"), "0.74");
    assert.equal(formatReading(1234.5, "en"), "1,235");
    assert.equal(formatReading(84, "en"), "84");
  });

  it("lists battery first, then the measurements with HA's units", () => {
    const parts = [part("energy", 3.4, "kWh"), part("power", 120, "W"), part("battery", 84, "%")];
    assert.equal(carriedText(parts, "en"), "+ battery 84 %, 120 W, 3.4 kWh");
    assert.equal(carriedText([part("power", 120, "W"), part("energy", 3.4, "kWh")], "en"), "+ 120 W, 3.4 kWh");
  });

  it("says low and charging for the binary roles, and leaves out 'battery OK' next to a percentage", () => {
    assert.equal(carriedText([part("battery_low", true)]), "+ battery low");
    assert.equal(carriedText([part("battery_low", false)]), "+ battery OK");
    assert.equal(carriedText([part("battery", 12, "%"), part("battery_low", false)], "en"), "+ battery 12 %");
    assert.equal(carriedText([part("battery", 12, "%"), part("battery_low", true)], "en"), "+ battery 12 %, battery low");
    assert.equal(carriedText([part("battery_charging", true)]), "+ charging");
    assert.equal(carriedText([part("battery_charging", false)]), "+ not charging");
  });

  it("shows unknown values as a dash with what they are", () => {
    assert.equal(
      carriedText([part("battery", null, "%"), part("battery_low", null), part("power", null, "W")]),
      "+ battery —, battery —, power —",
    );
    assert.equal(partText(part("battery_charging", null)), "charging —");
    assert.equal(carriedText([part("current", Number.NaN, "A")]), "+ current —");
  });

  it("shows nothing for an endpoint that carries nothing", () => {
    assert.equal(carriedText([]), null);
    assert.equal(carriedText(undefined), null);
  });
});

describe("withParts", () => {
  const row = (entityId: string, composedInto: string | null = null, carries: CarriedPart[] = []) =>
    ({ entityId, composedInto, carries }) as BridgeDeviceInfo;

  it("puts each composed entity right under its endpoint in the order it carries them, parts of an unlisted endpoint last", () => {
    const plugCarries: CarriedPart[] = [
      { entityId: "sensor.plug_energy", role: "energy", value: 1, unit: "kWh" },
      { entityId: "sensor.plug_power", role: "power", value: 1, unit: "W" },
    ];
    const mains = [row("lock.front"), row("switch.plug", null, plugCarries), row("light.hall")];
    const parts = [
      row("sensor.plug_energy", "switch.plug"),
      row("sensor.gone_battery", "lock.gone"),
      row("sensor.plug_power", "switch.plug"),
      row("binary_sensor.front_battery", "lock.front"),
    ];
    assert.deepEqual(
      withParts(mains, parts).map((r) => r.entityId),
      [
        "lock.front",
        "binary_sensor.front_battery",
        "switch.plug",
        "sensor.plug_power",
        "sensor.plug_energy",
        "light.hall",
        "sensor.gone_battery",
      ],
    );
  });
});
