import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Thermostat } from "@matter/main/clusters/thermostat";
import { hassState } from "../../../../test/support/devices/ha-fixtures.ts";
import { climateCapabilities } from "../capabilities.ts";
import { controlSequenceFor, haModeForSystemMode, runningStateFor, setTemperatureData, systemModeFromHa } from "./thermostat.ts";

const Mode = Thermostat.SystemMode;
const caps = (modes: string[]) => climateCapabilities(hassState("climate.x", "off", { hvac_modes: modes }));

describe("thermostat modes (complaint #11: HA auto ≠ Matter Auto)", () => {
  test("capabilities: AutoMode only with heat_cool; auto-only devices heat", () => {
    assert.deepEqual(caps(["off", "heat", "cool", "heat_cool"]), {
      modes: ["off", "heat", "cool", "heat_cool"],
      heating: true,
      cooling: true,
      autoMode: true,
    });
    assert.equal(caps(["off", "heat", "cool", "auto"]).autoMode, false);
    assert.equal(caps(["off", "auto"]).heating, true);
    assert.equal(caps(["off", "cool"]).heating, false);
    assert.equal(caps(["fan_only", "dry"]).heating || caps(["fan_only", "dry"]).cooling, false);
  });

  test("HA heat_cool is Matter Auto; HA auto reads as what the device is doing", () => {
    const full = caps(["off", "heat", "cool", "heat_cool", "auto"]);
    assert.equal(systemModeFromHa("heat_cool", full, undefined), Mode.Auto);
    assert.equal(systemModeFromHa("auto", full, "cooling"), Mode.Cool);
    assert.equal(systemModeFromHa("auto", full, "heating"), Mode.Heat);
    assert.equal(systemModeFromHa("auto", full, "idle"), Mode.Heat);
    assert.equal(systemModeFromHa("auto", caps(["off", "cool", "auto"]), "idle"), Mode.Cool);
    assert.equal(systemModeFromHa("off", full, undefined), Mode.Off);
    assert.equal(systemModeFromHa("dry", full, undefined), Mode.Dry);
    assert.equal(systemModeFromHa("fan_only", full, undefined), Mode.FanOnly);
    assert.equal(systemModeFromHa("unknown", full, undefined), undefined);
  });

  test("a written mode picks the best HA mode the entity has, never one it lacks", () => {
    assert.equal(haModeForSystemMode(Mode.Auto, ["off", "heat", "cool", "heat_cool"]), "heat_cool");
    assert.equal(haModeForSystemMode(Mode.Auto, ["off", "heat", "auto"]), undefined, "HA auto is not Matter Auto");
    assert.equal(haModeForSystemMode(Mode.Heat, ["off", "auto"]), "auto", "radiator valve with auto only");
    assert.equal(haModeForSystemMode(Mode.Heat, ["off", "heat", "auto"]), "heat");
    assert.equal(haModeForSystemMode(Mode.Cool, ["off", "heat"]), undefined);
    assert.equal(haModeForSystemMode(Mode.Off, ["heat"]), undefined);
  });

  test("control sequence and running state", () => {
    assert.equal(controlSequenceFor(caps(["heat", "cool"])), Thermostat.ControlSequenceOfOperation.CoolingAndHeating);
    assert.equal(controlSequenceFor(caps(["heat"])), Thermostat.ControlSequenceOfOperation.HeatingOnly);
    assert.equal(controlSequenceFor(caps(["cool"])), Thermostat.ControlSequenceOfOperation.CoolingOnly);
    assert.deepEqual(runningStateFor("heating"), { heat: true, cool: false, fan: false });
    assert.deepEqual(runningStateFor("idle"), { heat: false, cool: false, fan: false });
  });
});

describe("setpoint data", () => {
  const toHa = (value: number) => value / 100;
  const current = { heating: 2000, cooling: 2400 };

  test("a range device always gets both bounds, the unwritten one from the current state", () => {
    assert.deepEqual(setTemperatureData({ heating: 2100 }, current, true, false, toHa), {
      target_temp_low: 21,
      target_temp_high: 24,
    });
    assert.deepEqual(setTemperatureData({ heating: 1900, cooling: 2500, hvacMode: "heat_cool" }, current, true, false, toHa), {
      hvac_mode: "heat_cool",
      target_temp_low: 19,
      target_temp_high: 25,
    });
  });

  test("a single-setpoint device gets the written setpoint; the cooling one in cooling modes", () => {
    assert.deepEqual(setTemperatureData({ heating: 2150 }, current, false, false, toHa), { temperature: 21.5 });
    assert.deepEqual(setTemperatureData({ cooling: 2300 }, current, false, true, toHa), { temperature: 23 });
    assert.deepEqual(setTemperatureData({ heating: 2000, cooling: 2300 }, current, false, true, toHa), { temperature: 23 });
    assert.deepEqual(setTemperatureData({ heating: 2000, cooling: 2300, hvacMode: "heat" }, current, false, false, toHa), {
      hvac_mode: "heat",
      temperature: 20,
    });
  });
});
