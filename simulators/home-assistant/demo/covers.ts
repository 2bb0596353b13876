/** Covers of every kind: with position and tilt, position only, and open/close only. */
import type { HomeBuilder } from "../home-builder.ts";
import { CoverFeature as C } from "../services/cover.ts";
import { coverAttrs } from "./attributes.ts";

export function addCovers(home: HomeBuilder): void {
  const cover = (
    key: string,
    name: string,
    manufacturer: string,
    model: string,
    integration: string,
    area: string,
    attributes: Record<string, unknown>,
    state: string,
  ) => {
    home.device({ key, name, manufacturer, model, integration, area });
    home.entity({
      entity_id: `cover.${key}`,
      device: key,
      name: null,
      state,
      deviceClass: attributes.device_class as string,
      attributes,
    });
  };
  cover(
    "living_room_blinds",
    "Living Room Blinds",
    "Shelly",
    "Shelly Plus 2PM",
    "shelly",
    "living_room",
    coverAttrs("blind", 255, 60, 45),
    "open",
  );
  cover(
    "bedroom_shade",
    "Bedroom Shade",
    "IKEA of Sweden",
    "FYRTUR block-out roller blind",
    "zha",
    "bedroom",
    coverAttrs("shade", C.OPEN | C.CLOSE | C.SET_POSITION | C.STOP, 0),
    "closed",
  );
  cover(
    "office_curtain",
    "Office Curtain",
    "Aqara",
    "Curtain Driver E1",
    "zha",
    "office",
    coverAttrs("curtain", C.OPEN | C.CLOSE | C.SET_POSITION | C.STOP, 100),
    "open",
  );
  cover(
    "kitchen_shutter",
    "Kitchen Shutter",
    "Somfy",
    "Oximo io",
    "overkiz",
    "kitchen",
    coverAttrs("shutter", C.OPEN | C.CLOSE | C.SET_POSITION | C.STOP, 35),
    "open",
  );
  cover(
    "patio_awning",
    "Patio Awning",
    "Somfy",
    "Sunea io",
    "overkiz",
    "garden",
    coverAttrs("awning", C.OPEN | C.CLOSE | C.SET_POSITION | C.STOP, 0),
    "closed",
  );
  cover("garage_door", "Garage Door", "Tailwind", "iQ3", "tailwind", "garage", coverAttrs("garage", C.OPEN | C.CLOSE), "closed");
  cover(
    "driveway_gate",
    "Driveway Gate",
    "Shelly",
    "Shelly Plus 1",
    "shelly",
    "garden",
    coverAttrs("gate", C.OPEN | C.CLOSE | C.STOP),
    "closed",
  );
  cover("shed_door", "Shed Door", "Meross", "MSG100", "meross_lan", "garden", coverAttrs("door", C.OPEN | C.CLOSE), "open");
  cover(
    "skylight",
    "Bathroom Skylight",
    "VELUX",
    "GGU INTEGRA",
    "velux",
    "bathroom",
    coverAttrs("window", C.OPEN | C.CLOSE | C.SET_POSITION | C.STOP, 0),
    "closed",
  );
}
