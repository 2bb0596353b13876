/**
 * Measurement sensors (read-only): temperature, humidity, pressure, flow, illuminance and air quality, in the
 * units of the Matter measurement clusters (convert/). A state without a number (`unknown`, text) reports
 * MeasuredValue null, which Matter defines as "no valid measurement".
 */
import { AirQualityServer } from "@matter/main/behaviors/air-quality";
import { CarbonDioxideConcentrationMeasurementServer } from "@matter/main/behaviors/carbon-dioxide-concentration-measurement";
import { FlowMeasurementServer } from "@matter/main/behaviors/flow-measurement";
import { IlluminanceMeasurementServer } from "@matter/main/behaviors/illuminance-measurement";
import { Pm10ConcentrationMeasurementServer } from "@matter/main/behaviors/pm10-concentration-measurement";
import { Pm25ConcentrationMeasurementServer } from "@matter/main/behaviors/pm25-concentration-measurement";
import { PressureMeasurementServer } from "@matter/main/behaviors/pressure-measurement";
import { RelativeHumidityMeasurementServer } from "@matter/main/behaviors/relative-humidity-measurement";
import { TemperatureMeasurementServer } from "@matter/main/behaviors/temperature-measurement";
import { TotalVolatileOrganicCompoundsConcentrationMeasurementServer } from "@matter/main/behaviors/total-volatile-organic-compounds-concentration-measurement";
import { AirQuality } from "@matter/main/clusters/air-quality";
import { ConcentrationMeasurement } from "@matter/main/clusters/concentration-measurement";
import { AirQualitySensorDevice } from "@matter/main/devices/air-quality-sensor";
import { FlowSensorDevice } from "@matter/main/devices/flow-sensor";
import { HumiditySensorDevice } from "@matter/main/devices/humidity-sensor";
import { LightSensorDevice } from "@matter/main/devices/light-sensor";
import { PressureSensorDevice } from "@matter/main/devices/pressure-sensor";
import { TemperatureSensorDevice } from "@matter/main/devices/temperature-sensor";
import { AIR_QUALITY_CLASSES, type AirQualityClass, airQualityFor, concentrationUnit } from "../../model/convert/air-quality.ts";
import { flowToMatter, humidityToMatter, luxToMatter, pressureToMatter } from "../../model/convert/measurements.ts";
import { toCentiCelsius } from "../../model/convert/temperature.ts";
import { deviceClass, numericState, unitOf } from "../../model/ha-state.ts";
import type { DeviceKind, KindContext } from "./kind.ts";

const NO_RANGE = { minMeasuredValue: null, maxMeasuredValue: null };

/** A read-only measurement kind: one cluster whose MeasuredValue comes from the numeric state. */
function measurement(
  endpointType: DeviceKind["endpointType"],
  cluster: string,
  convert: (value: number, unit: string | undefined) => number | undefined,
  range: Record<string, unknown> = NO_RANGE,
): DeviceKind {
  return {
    endpointType,
    fixed: () => ({ [cluster]: { ...range, measuredValue: null } }),
    project: (context) => {
      const value = numericState(context.snapshot.state);
      const converted = value === undefined ? undefined : convert(value, unitOf(context.snapshot.state));
      return { [cluster]: { measuredValue: converted ?? null } };
    },
    signature: () => cluster,
  };
}

/** Temperature Sensor (0x0302), 0.01 °C. */
export const temperatureSensor = measurement(
  () => TemperatureSensorDevice.with(TemperatureMeasurementServer),
  "temperatureMeasurement",
  toCentiCelsius,
);

/** Humidity Sensor (0x0307), 0.01 %. */
export const humiditySensor = measurement(
  () => HumiditySensorDevice.with(RelativeHumidityMeasurementServer),
  "relativeHumidityMeasurement",
  humidityToMatter,
  { minMeasuredValue: 0, maxMeasuredValue: 10000 },
);

/** Pressure Sensor (0x0305), 0.1 kPa. */
export const pressureSensor = measurement(
  () => PressureSensorDevice.with(PressureMeasurementServer),
  "pressureMeasurement",
  pressureToMatter,
);

/** Flow Sensor (0x0306), 0.1 m³/h. */
export const flowSensor = measurement(() => FlowSensorDevice.with(FlowMeasurementServer), "flowMeasurement", flowToMatter);

/** Light Sensor (0x0106), 10000 × log10(lux) + 1. */
export const lightSensor = measurement(
  () => LightSensorDevice.with(IlluminanceMeasurementServer),
  "illuminanceMeasurement",
  luxToMatter,
);

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
