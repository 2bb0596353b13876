/**
 * Hot water: a hybrid heat pump water heater with the operation modes of HA's demo water heater (eco, electric,
 * performance, high_demand, heat_pump, gas, off), shown in the home's °C as HA shows a 110-140 °F tank.
 */
import type { HomeBuilder } from "../home-builder.ts";
import { WaterHeaterFeature as W } from "../services/water-heater.ts";

export function addWater(home: HomeBuilder): void {
  home.device({
    key: "hot_water_tank",
    name: "Hot water tank",
    manufacturer: "Rheem",
    model: "ProTerra Hybrid Electric Heat Pump",
    model_id: "PROPH50 T2 RH350 D",
    integration: "econet",
    area: "garage",
    sw_version: "5.09",
    connection: "mac",
  });
  home.entity({
    entity_id: "water_heater.hot_water_tank",
    device: "hot_water_tank",
    name: null,
    state: "eco",
    attributes: {
      min_temp: 43.3,
      max_temp: 60.0,
      target_temp_step: 0.5,
      operation_list: ["eco", "electric", "performance", "high_demand", "heat_pump", "gas", "off"],
      current_temperature: 48.5,
      temperature: 52.0,
      target_temp_high: null,
      target_temp_low: null,
      operation_mode: "eco",
      away_mode: "off",
      supported_features: W.TARGET_TEMPERATURE | W.OPERATION_MODE | W.AWAY_MODE | W.ON_OFF,
    },
  });
}
