/**
 * The solar inverter: power and energy meters on a device with nothing to switch, as HA's SMA integration gives
 * them. The hub exposes such a device as a Matter Electrical Sensor carrying its other electrical sensors.
 */

import type { HomeBuilder } from "../home-builder.ts";
import { sensorAttrs } from "./attributes.ts";

export function addSolar(home: HomeBuilder): void {
  home.device({
    key: "inverter",
    name: "Solar Inverter",
    manufacturer: "SMA",
    model: "Sunny Boy 3.6",
    model_id: "SB3.6-1AV-41",
    integration: "sma",
    area: "garage",
    sw_version: "4.1.3.R",
    connection: "mac",
    labels: ["energy"],
  });
  home.entity({
    entity_id: "sensor.solar_inverter_pv_power",
    device: "inverter",
    name: "PV power",
    state: "1840",
    changedAgo: 1,
    deviceClass: "power",
    attributes: sensorAttrs("power", "W"),
  });
  home.entity({
    entity_id: "sensor.solar_inverter_total_yield",
    device: "inverter",
    name: "Total yield",
    state: "9421.374",
    changedAgo: 4,
    deviceClass: "energy",
    attributes: sensorAttrs("energy", "kWh", "total_increasing"),
  });
  home.entity({
    entity_id: "sensor.solar_inverter_grid_voltage",
    device: "inverter",
    name: "Grid voltage",
    state: "232.8",
    changedAgo: 1,
    deviceClass: "voltage",
    attributes: sensorAttrs("voltage", "V"),
  });
}
