/**
 * Measurement sensors (read-only): temperature, humidity, pressure, flow and illuminance, in the units of the Matter
 * measurement clusters (convert/). A state without a number (`unknown`, text) reports MeasuredValue null, which
 * Matter defines as "no valid measurement". Air quality has its own module (air-quality-kind.ts).
 */
import { FlowMeasurementServer } from "@matter/main/behaviors/flow-measurement";
import { IlluminanceMeasurementServer } from "@matter/main/behaviors/illuminance-measurement";
import { PressureMeasurementServer } from "@matter/main/behaviors/pressure-measurement";
import { RelativeHumidityMeasurementServer } from "@matter/main/behaviors/relative-humidity-measurement";
import { TemperatureMeasurementServer } from "@matter/main/behaviors/temperature-measurement";
import { FlowSensorDevice } from "@matter/main/devices/flow-sensor";
import { HumiditySensorDevice } from "@matter/main/devices/humidity-sensor";
import { LightSensorDevice } from "@matter/main/devices/light-sensor";
import { PressureSensorDevice } from "@matter/main/devices/pressure-sensor";
import { TemperatureSensorDevice } from "@matter/main/devices/temperature-sensor";
import { flowToMatter, humidityToMatter, luxToMatter, pressureToMatter } from "../../model/convert/measurements.ts";
import { toCentiCelsius } from "../../model/convert/temperature.ts";
import { numericState, unitOf } from "../../model/ha-state.ts";
import type { DeviceKind } from "./kind.ts";

/** Measurement limits left open (null = unknown). */
export const NO_RANGE = { minMeasuredValue: null, maxMeasuredValue: null };

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
