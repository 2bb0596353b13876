import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { hassState } from "../../../test/support/devices/ha-fixtures.ts";
import { HomeAssistantModel } from "../../home-assistant/ha-model.ts";
import type { EntityRegistryEntry, HassEntity } from "../../home-assistant/types.ts";
import { mapEntity } from "../devices/domain-table.ts";
import type { DeviceTypeKey } from "../model/contract.ts";
import { type PlanInput, planDevice } from "./composition.ts";

type Entity = [entityId: string, state: string, attributes?: Record<string, unknown>, registry?: Partial<EntityRegistryEntry>];

/** A model with one HA device holding `entities`. */
function home(entities: Entity[]): HomeAssistantModel {
  const model = new HomeAssistantModel();
  const entry = (entityId: string, extra: Partial<EntityRegistryEntry> = {}): EntityRegistryEntry => ({
    entity_id: entityId,
    id: entityId,
    unique_id: entityId,
    platform: "test",
    device_id: "dev",
    area_id: null,
    config_entry_id: null,
    disabled_by: null,
    hidden_by: null,
    entity_category: null,
    has_entity_name: true,
    name: null,
    original_name: null,
    icon: null,
    labels: [],
    ...extra,
  });
  model.setRegistries({
    entities: entities.map(([id, , , registry]) => entry(id, registry)),
    devices: [],
    areas: [],
    labels: [],
  });
  model.applyStates(entities.map(([id, state, attributes]) => hassState(id, state, attributes) as HassEntity));
  return model;
}

const BATTERY = ["sensor.x_battery", "80", { device_class: "battery", unit_of_measurement: "%" }] as Entity;
const POWER = ["sensor.x_power", "100", { device_class: "power", unit_of_measurement: "W" }] as Entity;
const ENERGY = ["sensor.x_energy", "2", { device_class: "energy", unit_of_measurement: "kWh" }] as Entity;
const VOLTS = ["sensor.x_voltage", "230", { device_class: "voltage", unit_of_measurement: "V" }] as Entity;

/** A bridge whose filter selects `selected` (all entities when omitted), mapped by the domain table. */
function bridge(model: HomeAssistantModel, selected?: string[], excluded: string[] = []): PlanInput {
  return {
    model,
    keyOf: (id): DeviceTypeKey | undefined => {
      if (selected && !selected.includes(id)) return undefined;
      const state = model.states.get(id);
      const decision = mapEntity({ entityId: id, domain: id.slice(0, id.indexOf(".")), state, name: id });
      return "key" in decision ? decision.key : undefined;
    },
    excluded: (id) => excluded.includes(id),
  };
}

describe("composition plan of one HA device", () => {
  test("the battery goes on every exposed entity of the device, whatever the filter says about it", () => {
    const model = home([
      ["binary_sensor.x_motion", "off", { device_class: "motion" }],
      ["sensor.x_lux", "10", { device_class: "illuminance" }],
      BATTERY,
    ]);
    const plan = planDevice(bridge(model, ["binary_sensor.x_motion", "sensor.x_lux"]), "dev");
    assert.deepEqual(Object.fromEntries(plan.carriers), {
      "binary_sensor.x_motion": { battery: "sensor.x_battery" },
      "sensor.x_lux": { battery: "sensor.x_battery" },
    });
    assert.equal(plan.carriedBy.get("sensor.x_battery"), "binary_sensor.x_motion");
  });

  test("the battery skips config and diagnostic entities unless they are all that is exposed", () => {
    const motion = ["binary_sensor.x_motion", "off", { device_class: "motion" }] as Entity;
    const enabled = ["switch.x_enabled", "on", {}, { entity_category: "config" }] as Entity;
    const plan = planDevice(bridge(home([motion, enabled, BATTERY])), "dev");
    assert.deepEqual([...plan.carriers.keys()], ["binary_sensor.x_motion"]);
    const only = planDevice(bridge(home([motion, enabled, BATTERY]), ["switch.x_enabled"]), "dev");
    assert.deepEqual([...only.carriers.keys()], ["switch.x_enabled"]);
  });

  test("a plug carries the device's power, energy and voltage; so does a light", () => {
    for (const main of [
      ["switch.x", "on"],
      ["light.x", "on", { supported_color_modes: ["onoff"] }],
    ] as Entity[]) {
      const plan = planDevice(bridge(home([main, POWER, ENERGY, VOLTS])), "dev");
      assert.deepEqual(plan.carriers.get(main[0]), {
        power: "sensor.x_power",
        energy: "sensor.x_energy",
        voltage: "sensor.x_voltage",
      });
      assert.equal(plan.carriedBy.get("sensor.x_energy"), main[0]);
    }
  });

  test("with no plug, or two (a power strip), the power meter is an Electrical Sensor carrying the rest", () => {
    const strip = home([["switch.x_1", "on"], ["switch.x_2", "on"], POWER, ENERGY]);
    const plan = planDevice(bridge(strip), "dev");
    assert.deepEqual(plan.carriers.get("sensor.x_power"), { energy: "sensor.x_energy" });
    assert.equal(plan.carriers.has("switch.x_1"), false);
    const inverter = home([ENERGY, POWER]);
    assert.deepEqual(planDevice(bridge(inverter), "dev").carriers.get("sensor.x_power"), { energy: "sensor.x_energy" });
    // Only the energy sensor selected: it measures itself and carries the power sensor.
    const energyOnly = planDevice(bridge(inverter, ["sensor.x_energy"]), "dev");
    assert.deepEqual(energyOnly.carriers.get("sensor.x_energy"), { power: "sensor.x_power" });
  });

  test("a plug not on this bridge leaves its power meter to be a device of its own", () => {
    const plan = planDevice(bridge(home([["switch.x", "on"], POWER]), ["sensor.x_power"]), "dev");
    assert.equal(plan.carriedBy.size, 0);
    assert.equal(plan.carriers.size, 0);
  });

  test("detached, disabled, stateless or wrong-unit companions are none; no exposed entity carries nothing", () => {
    const model = home([
      ["lock.x", "locked"],
      ["sensor.x_battery", "80", { device_class: "battery", unit_of_measurement: "%" }, { disabled_by: "user" }],
      ["sensor.x_power", "1", { device_class: "power", unit_of_measurement: "hp" }],
      ["binary_sensor.x_low", "off", { device_class: "battery" }],
    ]);
    assert.deepEqual(planDevice(bridge(model), "dev").carriers.get("lock.x"), { battery_low: "binary_sensor.x_low" });
    assert.equal(planDevice(bridge(model, undefined, ["binary_sensor.x_low"]), "dev").carriers.size, 0);
    assert.equal(planDevice(bridge(model, []), "dev").carriers.size, 0, "nothing exposed: nothing carried");
  });
});
