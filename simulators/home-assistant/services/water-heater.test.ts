import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Connection, callService } from "home-assistant-js-websocket";
import { createDemoHome } from "../demo-home.ts";
import { startHaSimulator } from "../simulator.ts";
import { connectClient } from "../test-helpers.ts";
import type { HaSimulator } from "../types.ts";

const TANK = "water_heater.hot_water_tank";

const rejection = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; message: string; translation_key?: string; translation_placeholders?: unknown };
  }
  throw new Error("expected the call to fail");
};

describe("HA simulator: water_heater services", () => {
  let sim: HaSimulator;
  let conn: Connection;
  const call = (service: string, entityId: string, data?: Record<string, unknown>) =>
    callService(conn, "water_heater", service, data, { entity_id: entityId });
  const state = (entityId = TANK) => sim.getState(entityId);

  before(async () => {
    sim = await startHaSimulator({ token: "t", home: createDemoHome(), motionMs: 0 });
    conn = await connectClient(sim);
  });
  after(async () => {
    conn.close();
    await sim.close();
  });

  it("the demo tank: HA's demo modes, in eco, every feature", () => {
    const tank = state();
    assert.equal(tank?.state, "eco");
    assert.deepEqual(tank?.attributes.operation_list, [
      "eco",
      "electric",
      "performance",
      "high_demand",
      "heat_pump",
      "gas",
      "off",
    ]);
    assert.equal(tank?.attributes.operation_mode, "eco");
    assert.equal(tank?.attributes.supported_features, 15);
    assert.equal(tank?.attributes.friendly_name, "Hot water tank");
  });

  it("set_temperature sets the target, and the operation mode when one is given", async () => {
    await call("set_temperature", TANK, { temperature: 55.5 });
    assert.equal(state()?.attributes.temperature, 55.5);
    await call("set_temperature", TANK, { temperature: 50, operation_mode: "heat_pump" });
    assert.deepEqual(
      [state()?.state, state()?.attributes.operation_mode, state()?.attributes.temperature],
      ["heat_pump", "heat_pump", 50],
    );
    const missing = await rejection(call("set_temperature", TANK, {}));
    assert.equal(missing.code, "invalid_format");
    const text = await rejection(call("set_temperature", TANK, { temperature: "hot" }));
    assert.equal(text.code, "invalid_format");
  });

  it("set_operation_mode: listed modes only, with HA's messages", async () => {
    await call("set_operation_mode", TANK, { operation_mode: "high_demand" });
    assert.deepEqual([state()?.state, state()?.attributes.operation_mode], ["high_demand", "high_demand"]);
    const invalid = await rejection(call("set_operation_mode", TANK, { operation_mode: "turbo" }));
    assert.equal(invalid.code, "service_validation_error");
    assert.equal(invalid.translation_key, "not_valid_operation_mode");
    assert.equal(
      invalid.message,
      "Validation error: Operation mode turbo is not valid for water_heater.hot_water_tank. Valid operation modes are: eco, electric, performance, high_demand, heat_pump, gas, off.",
    );
    sim.setState("water_heater.listless", "eco", { supported_features: 2 });
    const listless = await rejection(call("set_operation_mode", "water_heater.listless", { operation_mode: "eco" }));
    assert.equal(listless.translation_key, "operation_list_not_defined");
    assert.equal(state("water_heater.listless")?.state, "eco");
  });

  it("turn_off and turn_on: off, then back to the last mode that was not off; away mode", async () => {
    await call("set_operation_mode", TANK, { operation_mode: "electric" });
    await call("turn_off", TANK);
    assert.deepEqual([state()?.state, state()?.attributes.operation_mode], ["off", "off"]);
    await call("turn_on", TANK);
    assert.equal(state()?.state, "electric");
    await call("set_away_mode", TANK, { away_mode: true });
    assert.equal(state()?.attributes.away_mode, "on");
    assert.equal(state()?.state, "electric", "away mode leaves the operation mode");
  });

  it("a service the entity's features lack is ServiceNotSupported, and nothing changes", async () => {
    sim.setState("water_heater.basic", "eco", { operation_list: ["eco", "off"], supported_features: 1 + 2 });
    for (const [service, data] of [
      ["turn_off", undefined],
      ["turn_on", undefined],
      ["set_away_mode", { away_mode: true }],
    ] as const) {
      const refused = await rejection(call(service, "water_heater.basic", data));
      assert.equal(refused.translation_key, "service_not_supported", service);
      assert.equal(
        refused.message,
        `Validation error: Entity water_heater.basic does not support action water_heater.${service}.`,
      );
    }
    sim.setState("water_heater.no_target", "eco", { operation_list: ["eco"], supported_features: 2 });
    const noTarget = await rejection(call("set_temperature", "water_heater.no_target", { temperature: 50 }));
    assert.equal(noTarget.translation_key, "service_not_supported");
    assert.equal(state("water_heater.basic")?.state, "eco");
  });
});
