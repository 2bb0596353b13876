/**
 * The load's state changes: for every HA entity a change that a real device of its kind makes (a light toggles, a
 * sensor reports a new value, a cover moves…), and for exposed entities the attribute writes the same change makes
 * on a plain matter.js bridge (the reference). Values cycle, so every change really changes something.
 */
import type { HassEntity } from "../../hub/src/home-assistant/types.ts";
import type { Change, Patch } from "./session.ts";

type Maker = (n: number) => { state: string; attributes?: Record<string, unknown> };

function makerFor(entity: HassEntity): Maker | undefined {
  const [domain] = entity.entity_id.split(".");
  const deviceClass = entity.attributes.device_class as string | undefined;
  const toggle: Maker = (n) => ({ state: n % 2 === 0 ? "on" : "off" });
  switch (domain) {
    case "light":
    case "switch":
    case "input_boolean":
    case "binary_sensor":
      return toggle;
    case "sensor": {
      const base =
        deviceClass === "temperature" ? 18 : deviceClass === "humidity" ? 40 : deviceClass === "illuminance" ? 100 : 10;
      return (n) => ({ state: (base + (n % 20) * 0.5).toFixed(1) });
    }
    case "cover":
      return (n) => ({ state: "open", attributes: { current_position: 10 + ((n * 7) % 90) } });
    case "climate":
      return (n) => ({ state: entity.state, attributes: { current_temperature: 17 + (n % 20) * 0.5 } });
    case "fan":
      return (n) => ({ state: "on", attributes: { percentage: 25 * (1 + (n % 4)) } });
    case "lock":
      return (n) => ({ state: n % 2 === 0 ? "locked" : "unlocked" });
    case "media_player":
      return (n) => ({ state: entity.state, attributes: { volume_level: ((n % 10) + 1) / 10 } });
    default:
      return undefined;
  }
}

/** The reference's attribute writes for a change of an entity exposed as `key`. */
function patchFor(key: string, change: { state: string; attributes?: Record<string, unknown> }): Patch | undefined {
  const on = change.state === "on";
  const number = Number(change.state);
  switch (key) {
    case "on_off_light":
    case "dimmable_light":
    case "color_temperature_light":
    case "extended_color_light":
    case "on_off_plugin_unit":
    case "dimmable_plug_in_unit":
      return { onOff: { onOff: on } };
    case "contact_sensor":
      return { booleanState: { stateValue: !on } };
    case "water_leak_detector":
      return { booleanState: { stateValue: on } };
    case "occupancy_sensor":
      return { occupancySensing: { occupancy: { occupied: on } } };
    case "temperature_sensor":
      return { temperatureMeasurement: { measuredValue: Math.round(number * 100) } };
    case "humidity_sensor":
      return { relativeHumidityMeasurement: { measuredValue: Math.round(number * 100) } };
    case "light_sensor":
      return { illuminanceMeasurement: { measuredValue: Math.round(10000 * Math.log10(Math.max(1, number)) + 1) } };
    case "window_covering": {
      const position = Number(change.attributes?.current_position ?? 0);
      return { windowCovering: { currentPositionLiftPercent100ths: (100 - position) * 100 } };
    }
    case "thermostat":
      return { thermostat: { localTemperature: Math.round(Number(change.attributes?.current_temperature ?? 20) * 100) } };
    case "fan":
      return { fanControl: { percentCurrent: Number(change.attributes?.percentage ?? 0) } };
    case "door_lock":
      return { doorLock: { lockState: change.state === "locked" ? 1 : 2 } };
    case "speaker":
      return { levelControl: { currentLevel: Math.round(Number(change.attributes?.volume_level ?? 0) * 254) } };
    default:
      return undefined;
  }
}

/** Endless round-robin changes over `entities` (HA states), skipping `exclude`. */
export function changeStream(
  states: HassEntity[],
  exposed: Map<string, { key: string }>,
  exclude: Set<string>,
): { next(): Change; entityCount: number } {
  const makers = states
    .filter((state) => !exclude.has(state.entity_id))
    .map((state) => ({ entityId: state.entity_id, make: makerFor(state), count: 0 }))
    .filter((item): item is { entityId: string; make: Maker; count: number } => item.make !== undefined);
  let index = 0;
  return {
    entityCount: makers.length,
    next() {
      const item = makers[index % makers.length] as (typeof makers)[number];
      index++;
      item.count++;
      const change = item.make(item.count);
      const key = exposed.get(item.entityId)?.key;
      return { entityId: item.entityId, ...change, patch: key ? patchFor(key, change) : undefined };
    },
  };
}
