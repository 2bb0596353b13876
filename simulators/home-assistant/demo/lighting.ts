/** Lights of every colour capability, on and off, one unavailable, one hidden, one disabled, some labelled. */
import type { HomeBuilder } from "../home-builder.ts";
import { LightFeature, lightAttrs, unavailableLightAttrs } from "./attributes.ts";

const HUE_EFFECTS = ["off", "candle", "fire", "prism", "sparkle", "opal", "glisten"];

export function addLighting(home: HomeBuilder): void {
  const hue = LightFeature.EFFECT | LightFeature.FLASH | LightFeature.TRANSITION;

  home.device({
    key: "living_ceiling",
    name: "Living Room Ceiling",
    manufacturer: "Signify Netherlands B.V.",
    model: "Hue White and Color Ambiance A19",
    model_id: "LCA001",
    integration: "hue",
    area: "living_room",
    via: "hue_bridge",
    sw_version: "1.122.2",
    labels: ["voice_assistants"],
  });
  home.entity({
    entity_id: "light.living_room_ceiling",
    expose: { conversation: true, "cloud.alexa": true },
    device: "living_ceiling",
    name: null,
    state: "on",
    labels: ["voice_assistants"],
    attributes: lightAttrs(
      ["color_temp", "xy"],
      { on: true, brightness: 180, xy: [0.4573, 0.41], effect: "off" },
      { features: hue, effects: HUE_EFFECTS, minKelvin: 2000, maxKelvin: 6535 },
    ),
  });
  home.entity({
    entity_id: "update.living_room_ceiling_firmware",
    device: "living_ceiling",
    name: "Firmware",
    category: "config",
    state: "off",
    attributes: {
      auto_update: false,
      display_precision: 0,
      installed_version: "1.122.2",
      in_progress: false,
      latest_version: "1.122.2",
      release_summary: null,
      release_url: null,
      skipped_version: null,
      title: "Hue firmware",
      update_percentage: null,
      device_class: "firmware",
      supported_features: 0,
    },
  });

  home.device({
    key: "floor_lamp",
    name: "Floor Lamp",
    manufacturer: "IKEA of Sweden",
    model: "TRADFRI bulb E27 WS globe 806lm",
    model_id: "LED2003G10",
    integration: "zha",
    area: "living_room",
    via: "zigbee_coordinator",
    sw_version: "0x23086631",
    connection: "zigbee",
    labels: ["voice_assistants"],
  });
  home.entity({
    entity_id: "light.floor_lamp",
    expose: { conversation: true, "cloud.alexa": false },
    device: "floor_lamp",
    name: null,
    state: "on",
    attributes: lightAttrs(
      ["color_temp"],
      { on: true, brightness: 120, kelvin: 2700 },
      { features: LightFeature.TRANSITION | LightFeature.FLASH, minKelvin: 2202, maxKelvin: 4000 },
    ),
  });
  home.entity({
    entity_id: "select.floor_lamp_start_up_behavior",
    device: "floor_lamp",
    name: "Start-up behavior",
    category: "config",
    state: "previous",
    attributes: { options: ["off", "on", "toggle", "previous"] },
  });

  home.device({
    key: "kitchen_spots",
    name: "Kitchen Spots",
    manufacturer: "Shelly",
    model: "Shelly Dimmer 2",
    model_id: "SHDM-2",
    integration: "shelly",
    area: "kitchen",
    sw_version: "1.14.0",
    connection: "mac",
    configuration_url: "http://192.168.1.41",
  });
  home.entity({
    entity_id: "light.kitchen_spots",
    device: "kitchen_spots",
    name: null,
    state: "off",
    attributes: lightAttrs(["brightness"], { on: false }, { features: LightFeature.TRANSITION }),
  });
  home.entity({
    entity_id: "sensor.kitchen_spots_power",
    device: "kitchen_spots",
    name: "Power",
    state: "0.0",
    deviceClass: "power",
    attributes: { state_class: "measurement", unit_of_measurement: "W", device_class: "power" },
  });
  home.entity({
    entity_id: "sensor.kitchen_spots_signal_strength",
    device: "kitchen_spots",
    name: "Signal strength",
    category: "diagnostic",
    disabledBy: "integration",
    state: "-61",
    deviceClass: "signal_strength",
  });

  home.device({
    key: "hallway_relay",
    name: "Hallway Light",
    manufacturer: "Shelly",
    model: "Shelly Plus 1",
    model_id: "SNSW-001X16EU",
    integration: "shelly",
    area: "hallway",
    sw_version: "1.4.4",
    connection: "mac",
  });
  home.entity({
    entity_id: "light.hallway",
    device: "hallway_relay",
    name: null,
    state: "off",
    changedAgo: 12,
    attributes: lightAttrs(["onoff"], { on: false }),
  });

  home.device({
    key: "dining_pendant",
    name: "Dining Pendant",
    manufacturer: "Signify Netherlands B.V.",
    model: "Hue White A60",
    model_id: "LWA017",
    integration: "hue",
    area: "dining_room",
    via: "hue_bridge",
    sw_version: "1.116.3",
  });
  home.entity({
    entity_id: "light.dining_pendant",
    device: "dining_pendant",
    name: null,
    state: "on",
    attributes: lightAttrs(
      ["brightness"],
      { on: true, brightness: 254 },
      { features: LightFeature.FLASH | LightFeature.TRANSITION },
    ),
  });

  home.device({
    key: "bedside_lamp",
    name: "Bedside Lamp",
    manufacturer: "LIFX",
    model: "LIFX Mini Color",
    integration: "lifx",
    area: "bedroom",
    sw_version: "3.90",
    connection: "mac",
    labels: ["night_mode"],
  });
  home.entity({
    entity_id: "light.bedside_lamp",
    device: "bedside_lamp",
    name: null,
    state: "off",
    labels: ["night_mode", "voice_assistants"],
    attributes: lightAttrs(
      ["color_temp", "hs"],
      { on: false },
      {
        features: LightFeature.EFFECT | LightFeature.TRANSITION,
        minKelvin: 1500,
        maxKelvin: 9000,
        effects: ["effect_colorloop", "effect_pulse", "effect_stop"],
      },
    ),
  });

  home.device({
    key: "kids_night_light",
    name: "Kids Night Light",
    manufacturer: "IKEA of Sweden",
    model: "TRADFRI bulb E14 opal 470lm",
    model_id: "LED1733G7",
    integration: "zha",
    area: "kids_room",
    via: "zigbee_coordinator",
    connection: "zigbee",
    labels: ["night_mode"],
  });
  home.entity({
    entity_id: "light.kids_night_light",
    device: "kids_night_light",
    name: null,
    state: "on",
    changedAgo: 400,
    attributes: lightAttrs(["brightness"], { on: true, brightness: 25 }, { features: LightFeature.TRANSITION }),
  });

  home.device({
    key: "desk_strip",
    name: "Desk Strip",
    manufacturer: "WLED",
    model: "FOSS",
    integration: "wled",
    area: "office",
    sw_version: "0.15.0",
    connection: "mac",
    configuration_url: "http://192.168.1.57",
  });
  home.entity({
    entity_id: "light.desk_strip",
    device: "desk_strip",
    name: null,
    state: "on",
    attributes: lightAttrs(
      ["rgb"],
      { on: true, brightness: 200, rgb: [255, 120, 40], effect: "Solid" },
      { features: LightFeature.EFFECT | LightFeature.TRANSITION, effects: ["Solid", "Blink", "Breathe", "Rainbow", "Fireworks"] },
    ),
  });
  home.entity({
    entity_id: "light.desk_strip_segment_1",
    device: "desk_strip",
    name: "Segment 1",
    disabledBy: "integration",
    state: "on",
  });

  home.device({
    key: "path_lights",
    name: "Garden Path Lights",
    manufacturer: "Signify Netherlands B.V.",
    model: "Hue Lily outdoor spot",
    model_id: "1741530P7",
    integration: "hue",
    area: "garden",
    via: "hue_bridge",
    sw_version: "1.116.3",
  });
  home.entity({
    entity_id: "light.garden_path_lights",
    device: "path_lights",
    name: null,
    state: "off",
    changedAgo: 700,
    attributes: lightAttrs(["color_temp", "xy"], { on: false }, { features: hue, effects: HUE_EFFECTS }),
  });

  home.device({
    key: "garden_spot",
    name: "Garden Spotlight",
    manufacturer: "Signify Netherlands B.V.",
    model: "Hue Discover",
    model_id: "1746430P7",
    integration: "hue",
    area: "garden",
    via: "hue_bridge",
  });
  home.entity({
    entity_id: "light.garden_spotlight",
    device: "garden_spot",
    name: null,
    state: "unavailable",
    changedAgo: 2880,
    attributes: unavailableLightAttrs(["color_temp", "xy"], hue),
  });

  home.device({
    key: "bathroom_mirror",
    name: "Bathroom Mirror",
    manufacturer: "IKEA of Sweden",
    model: "TRADFRI bulb GU10 WS 400lm",
    model_id: "LED2005R5",
    integration: "zha",
    area: "bathroom",
    via: "zigbee_coordinator",
    connection: "zigbee",
  });
  home.entity({
    entity_id: "light.bathroom_mirror",
    device: "bathroom_mirror",
    name: null,
    state: "off",
    attributes: lightAttrs(
      ["color_temp"],
      { on: false },
      { features: LightFeature.TRANSITION, minKelvin: 2202, maxKelvin: 4000 },
    ),
  });
  home.entity({
    entity_id: "light.bathroom_mirror_group",
    uniqueId: "bathroom_mirror_group",
    platform: "group",
    name: "Bathroom Mirror Group",
    hiddenBy: "user",
    state: "off",
    attributes: {
      entity_id: ["light.bathroom_mirror"],
      ...lightAttrs(["color_temp"], { on: false }, { minKelvin: 2202, maxKelvin: 4000 }),
    },
  });
}
