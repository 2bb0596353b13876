import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { WaterHeaterMode } from "@matter/main/clusters/water-heater-mode";
import { hassState } from "../../../../test/support/devices/ha-fixtures.ts";
import {
  boostOperation,
  currentHeaterMode,
  heatDemand,
  heaterModes,
  heaterTypes,
  isOffMode,
  supportedModes,
} from "./water-heater.ts";

const Tag = WaterHeaterMode.ModeTag;
const DEMO = ["eco", "electric", "performance", "high_demand", "heat_pump", "gas", "off"];
const heater = (state: string, attributes: Record<string, unknown> = {}) => hassState("water_heater.tank", state, attributes);
const tags = (modes: ReturnType<typeof heaterModes>) => Object.fromEntries(modes.map((mode) => [mode.label, mode.tag]));

describe("water heater modes", () => {
  test("HA's demo modes: one mode each, numbered by position, tagged by meaning; no mode added", () => {
    const modes = heaterModes(heater("eco", { operation_list: DEMO }));
    assert.deepEqual(
      modes.map((mode) => mode.mode),
      [0, 1, 2, 3, 4, 5, 6],
    );
    assert.deepEqual(tags(modes), {
      eco: Tag.LowEnergy,
      electric: Tag.Manual,
      performance: Tag.Max,
      high_demand: Tag.Max,
      heat_pump: Tag.LowEnergy,
      gas: Tag.Manual,
      off: Tag.Off,
    });
    assert.deepEqual(supportedModes(modes)[6], { mode: 6, label: "off", modeTags: [{ mfgCode: undefined, value: Tag.Off }] });
  });

  test("without an HA off mode the hub adds Off (turn_off); without a Manual one, the first untagged mode is Manual", () => {
    const modes = heaterModes(heater("Heat Pump", { operation_list: ["Heat Pump", "Vacation", "Smart", "High Demand"] }));
    assert.deepEqual(tags(modes), {
      "Heat Pump": Tag.LowEnergy,
      Vacation: Tag.Vacation,
      Smart: Tag.Manual,
      "High Demand": Tag.Max,
      Off: Tag.Off,
    });
    assert.deepEqual(modes.at(-1), { mode: 4, label: "Off", tag: Tag.Off, power: "off" });
    const tagged = heaterModes(heater("eco", { operation_list: ["eco", "off"] }));
    assert.deepEqual(tags(tagged), { eco: Tag.Manual, off: Tag.Off }, "no untagged mode: the first that is not off");
  });

  test("no operation_list (or not a list, or only blanks): Off and On, which switch the heater", () => {
    for (const attributes of [{}, { operation_list: "eco" }, { operation_list: [" ", 3, null] }]) {
      const modes = heaterModes(heater("on", attributes));
      assert.deepEqual(
        modes.map(({ label, tag, power }) => ({ label, tag, power })),
        [
          { label: "Off", tag: Tag.Off, power: "off" },
          { label: "On", tag: Tag.Manual, power: "on" },
        ],
        JSON.stringify(attributes),
      );
    }
    assert.equal(heaterModes(undefined).length, 2, "no state at all");
  });

  test("duplicate labels are dropped and labels cut to 64 characters; every Off/Manual mode carries one tag", () => {
    const long = "x".repeat(80);
    const modes = heaterModes(heater("eco", { operation_list: ["eco", "eco", long, "electric"] }));
    assert.deepEqual(
      modes.map((mode) => mode.label),
      ["eco", "x".repeat(64), "electric", "Off"],
    );
    assert.deepEqual(
      modes.map((mode) => mode.mode),
      [0, 2, 3, 4],
    );
    for (const option of supportedModes(modes)) assert.ok(option.modeTags.length <= 1);
  });

  test("the current mode: operation_mode, else the state; off is the Off mode; unknown or unlisted is none", () => {
    const modes = heaterModes(heater("eco", { operation_list: ["eco", "electric"] }));
    assert.equal(currentHeaterMode(heater("eco", { operation_mode: "electric" }), modes)?.label, "electric");
    assert.equal(currentHeaterMode(heater("eco"), modes)?.label, "eco");
    assert.ok(isOffMode(currentHeaterMode(heater("off"), modes)));
    assert.equal(currentHeaterMode(heater("unknown"), modes), undefined);
    assert.equal(currentHeaterMode(heater("turbo"), modes), undefined);
    assert.equal(currentHeaterMode(heater("on"), heaterModes(heater("on")))?.label, "On");
  });

  test("Boost uses high_demand, else performance, else nothing", () => {
    assert.equal(boostOperation(heater("eco", { operation_list: DEMO })), "high_demand");
    assert.equal(boostOperation(heater("eco", { operation_list: ["eco", "Performance"] })), "Performance");
    assert.equal(boostOperation(heater("eco", { operation_list: ["eco", "electric"] })), undefined);
    assert.equal(boostOperation(undefined), undefined);
  });

  test("heat sources from the modes' names; demand only when on and below the target", () => {
    assert.deepEqual(heaterTypes(heater("eco", { operation_list: DEMO })), {
      immersionElement1: true,
      heatPump: true,
      boiler: true,
    });
    assert.deepEqual(heaterTypes(heater("eco", { operation_list: ["eco"] })), { other: true });
    const state = heater("heat_pump", { operation_list: DEMO });
    const modes = heaterModes(state);
    const current = currentHeaterMode(state, modes);
    assert.deepEqual(heatDemand(state, current, 40, 50), { heatPump: true });
    assert.deepEqual(heatDemand(state, current, 50, 50), {});
    assert.deepEqual(heatDemand(state, current, undefined, 50), {}, "unknown temperature: no demand claimed");
    const off = heater("off", { operation_list: DEMO });
    assert.deepEqual(heatDemand(off, currentHeaterMode(off, modes), 20, 50), {});
  });
});
