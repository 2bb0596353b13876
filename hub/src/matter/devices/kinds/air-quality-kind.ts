/**
 * Air Quality Sensor (0x002C): its own module, loaded with the first air quality sensor (index.ts): the AirQuality
 * cluster and the four concentration clusters are among the largest matter.js behaviors.
 */
import { AirQualityServer } from "@matter/main/behaviors/air-quality";
import { CarbonDioxideConcentrationMeasurementServer } from "@matter/main/behaviors/carbon-dioxide-concentration-measurement";
import { Pm10ConcentrationMeasurementServer } from "@matter/main/behaviors/pm10-concentration-measurement";
import { Pm25ConcentrationMeasurementServer } from "@matter/main/behaviors/pm25-concentration-measurement";
import { TotalVolatileOrganicCompoundsConcentrationMeasurementServer } from "@matter/main/behaviors/total-volatile-organic-compounds-concentration-measurement";
import { AirQuality } from "@matter/main/clusters/air-quality";
import { ConcentrationMeasurement } from "@matter/main/clusters/concentration-measurement";
import { AirQualitySensorDevice } from "@matter/main/devices/air-quality-sensor";
import { AIR_QUALITY_CLASSES, type AirQualityClass, airQualityFor, concentrationUnit } from "../../model/convert/air-quality.ts";
import { deviceClass, numericState, unitOf } from "../../model/ha-state.ts";
import type { DeviceKind, KindContext } from "./kind.ts";
import { NO_RANGE } from "./sensor-kinds.ts";

const CONCENTRATION_SERVERS = {
  carbon_dioxide: ["carbonDioxideConcentrationMeasurement", CarbonDioxideConcentrationMeasurementServer],
  pm25: ["pm25ConcentrationMeasurement", Pm25ConcentrationMeasurementServer],
  pm10: ["pm10ConcentrationMeasurement", Pm10ConcentrationMeasurementServer],
  volatile_organic_compounds: [
    "totalVolatileOrganicCompoundsConcentrationMeasurement",
    TotalVolatileOrganicCompoundsConcentrationMeasurementServer,
  ],
  volatile_organic_compounds_parts: [
    "totalVolatileOrganicCompoundsConcentrationMeasurement",
    TotalVolatileOrganicCompoundsConcentrationMeasurementServer,
  ],
} as const;

function airClass(context: KindContext): AirQualityClass {
  const cls = deviceClass(context.snapshot.state);
  return (AIR_QUALITY_CLASSES as readonly string[]).includes(cls ?? "") ? (cls as AirQualityClass) : "aqi";
}

const AirQualityAll = AirQualityServer.with(
  AirQuality.Feature.Fair,
  AirQuality.Feature.Moderate,
  AirQuality.Feature.VeryPoor,
  AirQuality.Feature.ExtremelyPoor,
);

/**
 * Air Quality Sensor (0x002C): AirQuality from the pollutant's level, plus the pollutant's concentration cluster
 * (NumericMeasurement) for CO2, PM2.5, PM10 and TVOC. An AQI sensor has the AirQuality cluster only.
 */
export const airQualitySensor: DeviceKind = {
  endpointType: (context) => {
    const concentration =
      airClass(context) === "aqi" ? undefined : CONCENTRATION_SERVERS[airClass(context) as keyof typeof CONCENTRATION_SERVERS];
    return concentration
      ? AirQualitySensorDevice.with(AirQualityAll, concentration[1].with(ConcentrationMeasurement.Feature.NumericMeasurement))
      : AirQualitySensorDevice.with(AirQualityAll);
  },
  fixed: (context) => {
    const cls = airClass(context);
    const patch: ReturnType<DeviceKind["project"]> = { airQuality: { airQuality: AirQuality.AirQualityEnum.Unknown } };
    if (cls !== "aqi") {
      patch[CONCENTRATION_SERVERS[cls][0]] = {
        ...NO_RANGE,
        measuredValue: null,
        measurementMedium: ConcentrationMeasurement.MeasurementMedium.Air,
        measurementUnit: concentrationUnit(cls, unitOf(context.snapshot.state)),
      };
    }
    return patch;
  },
  project: (context) => {
    const cls = airClass(context);
    const value = numericState(context.snapshot.state);
    const patch: ReturnType<DeviceKind["project"]> = {
      airQuality: { airQuality: airQualityFor(cls, value, unitOf(context.snapshot.state)) },
    };
    if (cls !== "aqi") patch[CONCENTRATION_SERVERS[cls][0]] = { measuredValue: value ?? null };
    return patch;
  },
  signature: (context) => `${airClass(context)}:${unitOf(context.snapshot.state) ?? ""}`,
};
