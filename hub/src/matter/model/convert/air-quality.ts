/**
 * Air quality: HA reports one pollutant per sensor entity; Matter's Air Quality Sensor carries an overall
 * AirQuality enum (Application Cluster spec §2.9) plus one concentration cluster per pollutant (§2.10). The enum
 * is derived from the concentration with common breakpoints (US EPA AQI for PM and AQI; ventilation guidance
 * for CO2 and TVOC), one category per Matter level.
 */
import { AirQuality } from "@matter/main/clusters/air-quality";
import { ConcentrationMeasurement } from "@matter/main/clusters/concentration-measurement";

/** HA sensor device classes the Air Quality Sensor endpoint accepts. */
export const AIR_QUALITY_CLASSES = [
  "aqi",
  "carbon_dioxide",
  "pm25",
  "pm10",
  "volatile_organic_compounds",
  "volatile_organic_compounds_parts",
] as const;
/** One of {@link AIR_QUALITY_CLASSES}. */
export type AirQualityClass = (typeof AIR_QUALITY_CLASSES)[number];

/** Upper bounds (inclusive) for Good, Fair, Moderate, Poor, VeryPoor; above the last is ExtremelyPoor. */
const BREAKPOINTS: Record<AirQualityClass, readonly number[]> = {
  aqi: [50, 100, 150, 200, 300],
  carbon_dioxide: [750, 1000, 1500, 2000, 5000],
  pm25: [12, 35.4, 55.4, 150.4, 250.4],
  pm10: [54, 154, 254, 354, 424],
  volatile_organic_compounds: [300, 500, 1000, 3000, 10000],
  volatile_organic_compounds_parts: [65, 220, 660, 2200, 5500],
};

const LEVELS = [
  AirQuality.AirQualityEnum.Good,
  AirQuality.AirQualityEnum.Fair,
  AirQuality.AirQualityEnum.Moderate,
  AirQuality.AirQualityEnum.Poor,
  AirQuality.AirQualityEnum.VeryPoor,
  AirQuality.AirQualityEnum.ExtremelyPoor,
] as const;

/** Normalises a value to the unit the breakpoints use (ppm for CO2, µg/m³ for PM/TVOC, ppb for TVOC parts). */
function normalised(deviceClass: AirQualityClass, value: number, unit: string | undefined): number {
  if (deviceClass === "volatile_organic_compounds_parts" && unit === "ppm") return value * 1000;
  if (deviceClass === "volatile_organic_compounds" && unit === "mg/m³") return value * 1000;
  return value;
}

/** The Matter AirQuality category for a pollutant reading; Unknown without a value. */
export function airQualityFor(
  deviceClass: AirQualityClass,
  value: number | undefined,
  unit: string | undefined,
): AirQuality.AirQualityEnum {
  if (value === undefined || value < 0) return AirQuality.AirQualityEnum.Unknown;
  const reading = normalised(deviceClass, value, unit);
  const index = BREAKPOINTS[deviceClass].findIndex((limit) => reading <= limit);
  return LEVELS[index === -1 ? LEVELS.length - 1 : index] ?? AirQuality.AirQualityEnum.Unknown;
}

const UNIT_BY_HA: Record<string, ConcentrationMeasurement.MeasurementUnit> = {
  ppm: ConcentrationMeasurement.MeasurementUnit.Ppm,
  ppb: ConcentrationMeasurement.MeasurementUnit.Ppb,
  ppt: ConcentrationMeasurement.MeasurementUnit.Ppt,
  "mg/m³": ConcentrationMeasurement.MeasurementUnit.Mgm3,
  "µg/m³": ConcentrationMeasurement.MeasurementUnit.Ugm3,
  "μg/m³": ConcentrationMeasurement.MeasurementUnit.Ugm3,
};

/** Matter MeasurementUnit for an HA concentration unit; the class's usual unit when HA gives none. */
export function concentrationUnit(
  deviceClass: AirQualityClass,
  unit: string | undefined,
): ConcentrationMeasurement.MeasurementUnit | undefined {
  if (unit !== undefined) return UNIT_BY_HA[unit];
  if (deviceClass === "carbon_dioxide") return ConcentrationMeasurement.MeasurementUnit.Ppm;
  if (deviceClass === "volatile_organic_compounds_parts") return ConcentrationMeasurement.MeasurementUnit.Ppb;
  return ConcentrationMeasurement.MeasurementUnit.Ugm3;
}
