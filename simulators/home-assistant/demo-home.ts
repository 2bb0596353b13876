/**
 * The demo home: a realistic house with every domain and device class the hub maps, plus the awkward cases a real
 * HA has (hidden, disabled, unavailable, device-less, registry-less entities, entity areas overriding device
 * areas, config and diagnostic entities, labels on entities and devices, voice assistant exposure on a few entities,
 * one of them without a registry entry). Registry ids are stable across runs.
 */
import type { HomeSnapshot } from "../../hub/src/home-assistant/types.ts";
import { addAirSensors } from "./demo/air.ts";
import { addComfort } from "./demo/comfort.ts";
import { addCovers } from "./demo/covers.ts";
import { addEnergy } from "./demo/energy.ts";
import { addHelpers } from "./demo/helpers.ts";
import { addLighting } from "./demo/lighting.ts";
import { addMedia } from "./demo/media.ts";
import { addSecurity } from "./demo/security.ts";
import { addSolar } from "./demo/solar.ts";
import { addStructure } from "./demo/structure.ts";
import { addWater } from "./demo/water.ts";
import { createHomeBuilder } from "./home-builder.ts";

/** Builds the demo home; `now` (epoch ms, default the current time) anchors its timestamps. */
export function createDemoHome(options: { now?: number } = {}): HomeSnapshot {
  const now = (options.now ?? Date.now()) / 1000;
  const home = createHomeBuilder({ seed: "matter-hub-demo-home", now });
  addStructure(home);
  addLighting(home);
  addComfort(home);
  addWater(home);
  addAirSensors(home);
  addSecurity(home);
  addCovers(home);
  addMedia(home, now);
  addEnergy(home);
  addSolar(home);
  addHelpers(home, now);
  return home.build();
}
