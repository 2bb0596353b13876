/** The demo home's floors of rooms, its labels, and the hubs other devices talk through. */
import type { HomeBuilder } from "../home-builder.ts";

export function addStructure(home: HomeBuilder): void {
  home.area("living_room", "Living Room", {
    icon: "mdi:sofa",
    aliases: ["Lounge"],
    temperature_entity_id: "sensor.living_room_sensor_temperature",
    humidity_entity_id: "sensor.living_room_sensor_humidity",
  });
  home.area("kitchen", "Kitchen", { icon: "mdi:stove" });
  home.area("dining_room", "Dining Room", { icon: "mdi:table-chair" });
  home.area("bedroom", "Bedroom", { icon: "mdi:bed-king", temperature_entity_id: "sensor.bedroom_sensor_temperature" });
  home.area("kids_room", "Kids Room", { icon: "mdi:teddy-bear" });
  home.area("bathroom", "Bathroom", { icon: "mdi:shower" });
  home.area("office", "Office", { icon: "mdi:desk", labels: ["work"] });
  home.area("hallway", "Hallway", { icon: "mdi:door" });
  home.area("laundry", "Laundry Room", { icon: "mdi:washing-machine" });
  home.area("garage", "Garage", { icon: "mdi:garage" });
  home.area("garden", "Garden", { icon: "mdi:flower", aliases: ["Backyard"] });

  home.label("voice_assistants", "Voice assistants", {
    color: "indigo",
    icon: "mdi:microphone-message",
    description: "Exposed to voice control",
  });
  home.label("night_mode", "Night mode", {
    color: "deep-purple",
    icon: "mdi:weather-night",
    description: "Dimmed or silenced at night",
  });
  home.label("energy", "Energy monitoring", { color: "amber", icon: "mdi:lightning-bolt" });
  home.label("security", "Security", { color: "red", icon: "mdi:shield-home" });
  home.label("work", "Work", { color: "blue-grey", icon: "mdi:briefcase" });

  home.device({
    key: "hue_bridge",
    name: "Hue Bridge",
    manufacturer: "Signify Netherlands B.V.",
    model: "Hue Bridge",
    model_id: "BSB002",
    integration: "hue",
    area: "hallway",
    sw_version: "1.68.1968096020",
    connection: "mac",
    configuration_url: "http://192.168.1.20/",
  });
  home.device({
    key: "zigbee_coordinator",
    name: "Home Assistant Connect ZBT-1",
    manufacturer: "Nabu Casa",
    model: "Home Assistant Connect ZBT-1",
    integration: "zha",
    area: "hallway",
    sw_version: "7.4.4.0",
    connection: "zigbee",
  });
}
