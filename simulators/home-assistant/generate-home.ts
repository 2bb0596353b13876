/**
 * Synthetic homes for scale work: `generateHome(n, seed)` gives exactly n entities, mostly lights, switches and
 * sensors, on devices spread over areas, the same for the same arguments (timestamps included).
 */
import type { HomeSnapshot } from "../../hub/src/home-assistant/types.ts";
import { binaryAttrs, coverAttrs, LightFeature, lightAttrs, sensorAttrs } from "./demo/attributes.ts";
import { createHomeBuilder, type EntitySpec } from "./home-builder.ts";
import { ClimateFeature } from "./services/climate.ts";
import { CoverFeature } from "./services/cover.ts";
import { FanFeature } from "./services/fan.ts";
import type { ColorMode } from "./services/light-model.ts";
import { MediaFeature } from "./services/media-player.ts";

/** 2026-01-01T00:00:00Z: generated homes do not depend on the clock. */
const BASE_EPOCH = 1_767_225_600;

const ROOMS = [
  "Living Room",
  "Kitchen",
  "Bedroom",
  "Office",
  "Hallway",
  "Bathroom",
  "Garage",
  "Garden",
  "Attic",
  "Basement",
  "Dining Room",
  "Study",
];

/** mulberry32: a small, fast, seedable PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Kind =
  | "bulb"
  | "plug"
  | "climate_sensor"
  | "contact"
  | "motion"
  | "cover"
  | "thermostat"
  | "fan"
  | "lock"
  | "speaker"
  | "helper";

const KINDS: [Kind, number][] = [
  ["bulb", 30],
  ["plug", 12],
  ["climate_sensor", 12],
  ["contact", 10],
  ["motion", 8],
  ["cover", 8],
  ["thermostat", 4],
  ["fan", 3],
  ["lock", 2],
  ["speaker", 2],
  ["helper", 3],
];
const TOTAL_WEIGHT = KINDS.reduce((sum, [, weight]) => sum + weight, 0);

function weightedKind(roll: number): Kind {
  let left = roll;
  for (const [kind, weight] of KINDS) {
    left -= weight;
    if (left < 0) return kind;
  }
  return "bulb";
}

const LIGHT_MODES: ColorMode[][] = [
  ["onoff"],
  ["brightness"],
  ["color_temp"],
  ["color_temp", "hs"],
  ["color_temp", "xy"],
  ["rgb"],
];

export function generateHome(n: number, seed = 1): HomeSnapshot {
  if (!Number.isInteger(n) || n < 0) throw new Error(`generateHome: n must be a non-negative integer, got ${n}`);
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const home = createHomeBuilder({ seed: `generated-${seed}`, now: BASE_EPOCH });
  const areaCount = Math.max(3, Math.min(ROOMS.length * 20, Math.ceil(n / 40)));
  const areas: string[] = [];
  for (let i = 0; i < areaCount; i++) {
    const room = ROOMS[i % ROOMS.length] as string;
    const round = Math.floor(i / ROOMS.length);
    const name = round === 0 ? room : `${room} ${round + 1}`;
    areas.push(home.area(name.toLowerCase().replaceAll(" ", "_"), name));
  }
  home.label("generated", "Generated", { color: "grey" });

  let made = 0;
  for (let index = 0; made < n; index++) {
    const kind = weightedKind(random() * TOTAL_WEIGHT);
    const area = pick(areas);
    const key = `${kind}_${index}`;
    const on = random() < 0.5;
    const specs: EntitySpec[] = [];
    const changedAgo = Math.floor(random() * 600);
    const add = (spec: Omit<EntitySpec, "device">) => specs.push({ ...spec, device: key, changedAgo });
    switch (kind) {
      case "bulb": {
        const modes = pick(LIGHT_MODES);
        add({
          entity_id: `light.${key}`,
          name: null,
          state: on ? "on" : "off",
          attributes: lightAttrs(
            modes,
            { on, brightness: 1 + Math.floor(random() * 254) },
            { features: LightFeature.TRANSITION },
          ),
        });
        break;
      }
      case "plug":
        add({
          entity_id: `switch.${key}`,
          name: null,
          state: on ? "on" : "off",
          deviceClass: "outlet",
          attributes: { device_class: "outlet" },
        });
        add({
          entity_id: `sensor.${key}_power`,
          name: "Power",
          state: on ? (random() * 300).toFixed(1) : "0.0",
          deviceClass: "power",
          attributes: sensorAttrs("power", "W"),
        });
        break;
      case "climate_sensor":
        add({
          entity_id: `sensor.${key}_temperature`,
          name: "Temperature",
          state: (17 + random() * 8).toFixed(1),
          deviceClass: "temperature",
          attributes: sensorAttrs("temperature", "°C"),
        });
        add({
          entity_id: `sensor.${key}_humidity`,
          name: "Humidity",
          state: (35 + random() * 30).toFixed(1),
          deviceClass: "humidity",
          attributes: sensorAttrs("humidity", "%"),
        });
        add({
          entity_id: `sensor.${key}_battery`,
          name: "Battery",
          category: "diagnostic",
          state: String(20 + Math.floor(random() * 80)),
          deviceClass: "battery",
          attributes: sensorAttrs("battery", "%"),
        });
        break;
      case "contact": {
        const deviceClass = pick(["door", "window", "opening"]);
        add({
          entity_id: `binary_sensor.${key}`,
          name: null,
          state: on ? "on" : "off",
          deviceClass,
          attributes: binaryAttrs(deviceClass),
        });
        break;
      }
      case "motion":
        add({
          entity_id: `binary_sensor.${key}_motion`,
          name: "Motion",
          state: on ? "on" : "off",
          deviceClass: "motion",
          attributes: binaryAttrs("motion"),
        });
        add({
          entity_id: `sensor.${key}_illuminance`,
          name: "Illuminance",
          state: String(Math.floor(random() * 800)),
          deviceClass: "illuminance",
          attributes: sensorAttrs("illuminance", "lx"),
        });
        break;
      case "cover": {
        const position = pick([0, 0, 35, 100]);
        const features = CoverFeature.OPEN | CoverFeature.CLOSE | CoverFeature.SET_POSITION | CoverFeature.STOP;
        add({
          entity_id: `cover.${key}`,
          name: null,
          state: position > 0 ? "open" : "closed",
          deviceClass: "blind",
          attributes: coverAttrs(pick(["blind", "shade", "curtain"]), features, position),
        });
        break;
      }
      case "thermostat": {
        const current = 17 + Math.round(random() * 60) / 10;
        add({
          entity_id: `climate.${key}`,
          name: null,
          state: on ? "heat" : "off",
          attributes: {
            hvac_modes: ["off", "heat"],
            min_temp: 5,
            max_temp: 30,
            target_temp_step: 0.5,
            current_temperature: current,
            temperature: 20.5,
            hvac_action: on ? (current < 20.3 ? "heating" : "idle") : "off",
            supported_features: ClimateFeature.TARGET_TEMPERATURE | ClimateFeature.TURN_OFF | ClimateFeature.TURN_ON,
          },
        });
        break;
      }
      case "fan":
        add({
          entity_id: `fan.${key}`,
          name: null,
          state: on ? "on" : "off",
          attributes: {
            percentage: on ? 50 : 0,
            percentage_step: 25,
            supported_features: FanFeature.SET_SPEED | FanFeature.TURN_OFF | FanFeature.TURN_ON,
          },
        });
        break;
      case "lock":
        add({ entity_id: `lock.${key}`, name: null, state: on ? "locked" : "unlocked", attributes: { supported_features: 0 } });
        break;
      case "speaker":
        add({
          entity_id: `media_player.${key}`,
          name: null,
          state: on ? "playing" : "idle",
          deviceClass: "speaker",
          attributes: {
            volume_level: 0.25,
            is_volume_muted: false,
            device_class: "speaker",
            supported_features:
              MediaFeature.PAUSE | MediaFeature.VOLUME_SET | MediaFeature.VOLUME_MUTE | MediaFeature.PLAY | MediaFeature.STOP,
          },
        });
        break;
      case "helper":
        specs.push({
          entity_id: `input_boolean.${key}`,
          uniqueId: key,
          name: `Helper ${index}`,
          state: on ? "on" : "off",
          labels: ["generated"],
          attributes: { editable: true },
        });
        break;
    }
    const wanted = specs.slice(0, n - made);
    if (wanted.some((spec) => spec.device !== undefined)) {
      const title = `${kind.replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase())} ${index}`;
      home.device({
        key,
        name: title,
        manufacturer: "Simulated Devices",
        model: `SIM-${kind.toUpperCase()}`,
        integration: "sim",
        area,
        connection: "mac",
      });
    }
    for (const spec of wanted) home.entity(spec);
    made += wanted.length;
  }
  return home.build();
}
