import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { batteryToMatter, chargeLevelOf, isElectricalUnit, toMilli } from "./electrical.ts";

describe("electrical and battery conversions", () => {
  test("HA units become Matter's milli-units", () => {
    assert.equal(toMilli("power", 171.3, "W"), 171_300);
    assert.equal(toMilli("power", 1.2, "kW"), 1_200_000);
    assert.equal(toMilli("energy", 48.213, "kWh"), 48_213_000);
    assert.equal(toMilli("energy", 500, "Wh"), 500_000);
    assert.equal(toMilli("energy", 1.5, "MWh"), 1_500_000_000);
    assert.equal(toMilli("voltage", 231.4, "V"), 231_400);
    assert.equal(toMilli("current", 0.742, "A"), 742);
    assert.equal(toMilli("current", 350, "mA"), 350);
  });

  test("no number, a negative one, an unknown unit or an unsafe size give undefined", () => {
    assert.equal(toMilli("power", undefined, "W"), undefined);
    assert.equal(toMilli("power", -1, "W"), undefined);
    assert.equal(toMilli("power", Number.NaN, "W"), undefined);
    assert.equal(toMilli("power", 10, "hp"), undefined);
    assert.equal(toMilli("power", 10, undefined), undefined);
    assert.equal(toMilli("energy", 1e300, "MWh"), undefined);
    assert.equal(isElectricalUnit("energy", "W"), false);
    assert.equal(isElectricalUnit("energy", "kWh"), true);
  });

  test("battery percent in half-percent units, within 0..100 %", () => {
    assert.equal(batteryToMatter(84), 168);
    assert.equal(batteryToMatter(0), 0);
    assert.equal(batteryToMatter(100), 200);
    assert.equal(batteryToMatter(33.3), 67);
    assert.equal(batteryToMatter(-1), undefined);
    assert.equal(batteryToMatter(101), undefined);
    assert.equal(batteryToMatter(undefined), undefined);
  });

  test("charge level: critical at 10 % or less, warning at 20 % or less or when HA says low", () => {
    assert.equal(chargeLevelOf(10, false), "critical");
    assert.equal(chargeLevelOf(20, false), "warning");
    assert.equal(chargeLevelOf(21, false), "ok");
    assert.equal(chargeLevelOf(undefined, true), "warning");
    assert.equal(chargeLevelOf(90, true), "warning");
    assert.equal(chargeLevelOf(undefined, undefined), "ok");
  });
});
