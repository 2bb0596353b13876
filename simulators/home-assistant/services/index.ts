import { choiceServices } from "./choices.ts";
import { climateServices, humidifierServices } from "./climate.ts";
import { coverServices, valveServices } from "./cover.ts";
import { fanServices } from "./fan.ts";
import { homeassistantServices } from "./homeassistant.ts";
import { lightServices } from "./light.ts";
import { mediaPlayerServices } from "./media-player.ts";
import { scriptServices } from "./scripts.ts";
import { alarmServices, lockServices } from "./security.ts";
import { toggleServices } from "./toggles.ts";
import type { ServiceSpec } from "./types.ts";
import { vacuumServices } from "./vacuum.ts";
import { waterHeaterServices } from "./water-heater.ts";
import { weatherServices } from "./weather.ts";

/** Every service the simulator offers, for every domain the hub maps. */
export function allServices(): ServiceSpec[] {
  const specs = [
    ...lightServices(),
    ...toggleServices(),
    ...scriptServices(),
    ...coverServices(),
    ...valveServices(),
    ...lockServices(),
    ...alarmServices(),
    ...climateServices(),
    ...waterHeaterServices(),
    ...humidifierServices(),
    ...fanServices(),
    ...mediaPlayerServices(),
    ...vacuumServices(),
    ...choiceServices(),
    ...weatherServices(),
  ];
  const known = new Set(specs.map((spec) => `${spec.domain}.${spec.service}`));
  return [...specs, ...homeassistantServices((domain, service) => known.has(`${domain}.${service}`))];
}
