/** Plugs and relays with power metering, the utility meters, water valves and the garden pump. */

import type { HomeBuilder } from "../home-builder.ts";
import { ValveFeature as V } from "../services/cover.ts";
import { binaryAttrs, lightAttrs, sensorAttrs } from "./attributes.ts";

export function addEnergy(home: HomeBuilder): void {
  const plug = (
    key: string,
    name: string,
    area: string,
    on: boolean,
    watts: string,
    extra: { labels?: string[]; hidden?: boolean } = {},
  ) => {
    home.device({
      key,
      name,
      manufacturer: "Shelly",
      model: "Shelly Plus Plug S",
      model_id: "SNPL-00112EU",
      integration: "shelly",
      area,
      sw_version: "1.4.4",
      connection: "mac",
      labels: extra.labels ?? [],
    });
    home.entity({
      entity_id: `switch.${key}`,
      device: key,
      name: null,
      state: on ? "on" : "off",
      deviceClass: "outlet",
      ...(extra.hidden ? { hiddenBy: "user" } : {}),
      attributes: { device_class: "outlet" },
    });
    home.entity({
      entity_id: `sensor.${key}_power`,
      device: key,
      name: "Power",
      state: watts,
      changedAgo: 1,
      deviceClass: "power",
      attributes: sensorAttrs("power", "W"),
    });
    home.entity({
      entity_id: `sensor.${key}_energy`,
      device: key,
      name: "Energy",
      state: "48.213",
      changedAgo: 2,
      deviceClass: "energy",
      attributes: sensorAttrs("energy", "kWh", "total_increasing"),
    });
    home.entity({
      entity_id: `sensor.${key}_voltage`,
      device: key,
      name: "Voltage",
      state: "231.4",
      changedAgo: 1,
      deviceClass: "voltage",
      attributes: sensorAttrs("voltage", "V"),
    });
    home.entity({
      entity_id: `sensor.${key}_current`,
      device: key,
      name: "Current",
      state: on ? "0.742" : "0.0",
      changedAgo: 1,
      deviceClass: "current",
      attributes: sensorAttrs("current", "A"),
    });
  };
  plug("coffee_machine", "Coffee Machine", "kitchen", true, "171.3", { labels: ["energy"] });
  plug("tv_plug", "TV Plug", "living_room", true, "96.0", { hidden: true });

  home.device({
    key: "christmas_lights",
    name: "Christmas Lights",
    manufacturer: "IKEA of Sweden",
    model: "TRADFRI control outlet",
    model_id: "E1603",
    integration: "zha",
    area: "living_room",
    via: "zigbee_coordinator",
    connection: "zigbee",
  });
  home.entity({
    entity_id: "switch.christmas_lights",
    device: "christmas_lights",
    name: null,
    disabledBy: "user",
    state: "off",
    deviceClass: "outlet",
  });

  home.device({
    key: "pro4pm",
    name: "Electrical Cabinet",
    manufacturer: "Shelly",
    model: "Shelly Pro 4PM",
    model_id: "SPSW-104PE16EU",
    integration: "shelly",
    area: "garage",
    sw_version: "1.4.4",
    connection: "mac",
    labels: ["energy"],
  });
  // Relays in the garage cabinet that switch things elsewhere: their entities carry their own area.
  home.entity({
    entity_id: "switch.garden_pump",
    device: "pro4pm",
    name: "Garden pump",
    area: "garden",
    state: "off",
    deviceClass: "switch",
    attributes: { device_class: "switch" },
  });
  home.entity({
    entity_id: "switch.garage_heater",
    device: "pro4pm",
    name: "Garage heater",
    state: "on",
    deviceClass: "switch",
    attributes: { device_class: "switch" },
  });
  home.entity({
    entity_id: "light.porch",
    device: "pro4pm",
    name: "Porch",
    area: "garden",
    state: "off",
    attributes: lightAttrs(["onoff"], { on: false }),
  });
  home.entity({
    entity_id: "sensor.electrical_cabinet_power",
    device: "pro4pm",
    name: "Power",
    state: "1264.8",
    changedAgo: 1,
    deviceClass: "power",
    attributes: sensorAttrs("power", "W"),
  });
  home.entity({
    entity_id: "sensor.electrical_cabinet_temperature",
    device: "pro4pm",
    name: "Device temperature",
    category: "diagnostic",
    state: "41.2",
    deviceClass: "temperature",
    attributes: sensorAttrs("temperature", "°C"),
  });

  home.device({
    key: "p1",
    name: "P1 Meter",
    manufacturer: "HomeWizard",
    model: "Wi-Fi P1 Meter",
    model_id: "HWE-P1",
    integration: "homewizard",
    area: "garage",
    sw_version: "5.18",
    connection: "mac",
    labels: ["energy"],
  });
  home.entity({
    entity_id: "sensor.p1_meter_power",
    device: "p1",
    name: "Power",
    state: "1432",
    changedAgo: 1,
    deviceClass: "power",
    attributes: sensorAttrs("power", "W"),
  });
  home.entity({
    entity_id: "sensor.p1_meter_energy_import",
    device: "p1",
    name: "Energy import",
    state: "15834.229",
    changedAgo: 1,
    deviceClass: "energy",
    attributes: sensorAttrs("energy", "kWh", "total_increasing"),
  });
  home.entity({
    entity_id: "sensor.p1_meter_total_gas",
    device: "p1",
    name: "Total gas",
    state: "4102.558",
    changedAgo: 5,
    deviceClass: "gas",
    attributes: sensorAttrs("gas", "m³", "total_increasing"),
  });

  home.device({
    key: "water_meter",
    name: "Water Meter",
    manufacturer: "HomeWizard",
    model: "Wi-Fi Watermeter",
    model_id: "HWE-WTR",
    integration: "homewizard",
    area: "garage",
    connection: "mac",
    labels: ["energy"],
  });
  home.entity({
    entity_id: "sensor.water_meter_total_water_usage",
    device: "water_meter",
    name: "Total water usage",
    state: "612.381",
    changedAgo: 3,
    deviceClass: "water",
    attributes: sensorAttrs("water", "m³", "total_increasing"),
  });
  home.entity({
    entity_id: "sensor.water_meter_active_water_usage",
    device: "water_meter",
    name: "Active water usage",
    state: "0.0",
    changedAgo: 3,
    deviceClass: "volume_flow_rate",
    attributes: sensorAttrs("volume_flow_rate", "L/min"),
  });

  home.device({
    key: "main_valve",
    name: "Main Water Valve",
    manufacturer: "Sonoff",
    model: "Smart Water Valve",
    model_id: "SWV",
    integration: "zha",
    area: "garage",
    via: "zigbee_coordinator",
    connection: "zigbee",
    labels: ["security"],
  });
  home.entity({
    entity_id: "valve.main_water_valve",
    device: "main_valve",
    name: null,
    state: "open",
    deviceClass: "water",
    attributes: { device_class: "water", supported_features: V.OPEN | V.CLOSE },
  });

  home.device({
    key: "irrigation",
    name: "Garden Irrigation",
    manufacturer: "GARDENA",
    model: "Smart Water Control",
    integration: "gardena_bluetooth",
    area: "garden",
  });
  home.entity({
    entity_id: "valve.garden_irrigation",
    device: "irrigation",
    name: null,
    state: "closed",
    deviceClass: "water",
    attributes: { current_position: 0, device_class: "water", supported_features: V.OPEN | V.CLOSE | V.SET_POSITION | V.STOP },
  });

  home.device({
    key: "plant",
    name: "Monstera",
    manufacturer: "Xiaomi",
    model: "Mi Flora",
    model_id: "HHCCJCY01",
    integration: "xiaomi_ble",
    area: "living_room",
    connection: "mac",
  });
  home.entity({
    entity_id: "sensor.monstera_moisture",
    device: "plant",
    name: "Moisture",
    state: "34",
    deviceClass: "moisture",
    attributes: sensorAttrs("moisture", "%"),
  });
  home.entity({
    entity_id: "sensor.monstera_illuminance",
    device: "plant",
    name: "Illuminance",
    state: "2210",
    deviceClass: "illuminance",
    attributes: sensorAttrs("illuminance", "lx"),
  });
  home.entity({
    entity_id: "sensor.monstera_conductivity",
    device: "plant",
    name: "Conductivity",
    state: "512",
    attributes: { state_class: "measurement", unit_of_measurement: "µS/cm" },
  });

  home.device({
    key: "charger",
    name: "EV Charger",
    manufacturer: "Ohme",
    model: "Home Pro",
    integration: "ohme",
    area: "garage",
    labels: ["energy"],
  });
  home.entity({
    entity_id: "binary_sensor.ev_charger_car_connected",
    device: "charger",
    name: "Car connected",
    state: "on",
    changedAgo: 600,
    deviceClass: "plug",
    attributes: binaryAttrs("plug"),
  });
  home.entity({
    entity_id: "sensor.ev_charger_power",
    device: "charger",
    name: "Power",
    state: "7.2",
    deviceClass: "power",
    attributes: sensorAttrs("power", "kW"),
  });
}
