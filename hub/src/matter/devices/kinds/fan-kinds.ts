/**
 * Fan (0x002B), Air Purifier (0x002D) and the humidifier shown as a fan. FanModeSequence is always set (an endpoint
 * without it does not mount, docs/plugins.md "Cluster ids"); features follow the HA fan: MultiSpeed + Step from
 * `percentage_step`, Auto from an automatic preset, Rocking from oscillation, Wind from sleep/natural presets,
 * AirflowDirection from direction. OnOff is added too: Google and Alexa switch fans with it.
 */
import { RelativeHumidityMeasurementServer } from "@matter/main/behaviors/relative-humidity-measurement";
import { FanControl } from "@matter/main/clusters/fan-control";
import { AirPurifierDevice } from "@matter/main/devices/air-purifier";
import { FanDevice } from "@matter/main/devices/fan";
import { HaFanControlServer } from "../../behaviors/fan-control-server.ts";
import { HaOnOffServer } from "../../behaviors/on-off-server.ts";
import { type FanCapabilities, fanCapabilities, humidifierCapabilities } from "../../model/capabilities.ts";
import { fanModeForPercentage, fanModeSequenceFor, percentageToSpeed } from "../../model/convert/fan.ts";
import { humidityToMatter } from "../../model/convert/measurements.ts";
import { booleanAttr, hasValue, numberAttr, stringAttr } from "../../model/ha-state.ts";
import type { DeviceKind, KindContext, StatePatch } from "./kind.ts";

const { Feature, FanMode, AirflowDirection } = FanControl;

function features(caps: FanCapabilities, humidifier = false) {
  const list: FanControl.Feature[] = [];
  if (!humidifier && caps.speeds >= 2) list.push(Feature.MultiSpeed, Feature.Step);
  if (caps.autoPreset) list.push(Feature.Auto);
  if (caps.oscillate) list.push(Feature.Rocking);
  if (caps.sleepPreset || caps.naturalPreset) list.push(Feature.Wind);
  if (caps.direction) list.push(Feature.AirflowDirection);
  return list;
}

function fixed(caps: FanCapabilities, humidifier = false): StatePatch {
  const values: Record<string, unknown> = {
    fanModeSequence: fanModeSequenceFor(humidifier ? 3 : caps.speeds, caps.autoPreset !== undefined),
    fanMode: FanMode.Off,
    percentSetting: 0,
    percentCurrent: 0,
  };
  if (!humidifier && caps.speeds >= 2) Object.assign(values, { speedMax: caps.speeds, speedSetting: 0, speedCurrent: 0 });
  if (caps.oscillate) Object.assign(values, { rockSupport: { rockLeftRight: true }, rockSetting: {} });
  if (caps.sleepPreset || caps.naturalPreset) {
    values.windSupport = { sleepWind: caps.sleepPreset !== undefined, naturalWind: caps.naturalPreset !== undefined };
    values.windSetting = {};
  }
  return { fanControl: values, onOff: { onOff: false } };
}

function fanProject(context: KindContext): StatePatch {
  const entity = context.snapshot.state;
  if (!hasValue(entity)) return {};
  const caps = fanCapabilities(entity);
  const on = entity?.state === "on";
  const preset = stringAttr(entity, "preset_mode");
  const percentage = on ? (caps.speeds > 0 ? (numberAttr(entity, "percentage") ?? 0) : 100) : 0;
  const values: Record<string, unknown> = {
    fanMode: !on
      ? FanMode.Off
      : preset !== undefined && preset === caps.autoPreset
        ? FanMode.Auto
        : fanModeForPercentage(percentage, caps.speeds),
    percentSetting: percentage,
    percentCurrent: percentage,
  };
  if (caps.speeds >= 2) {
    const speed = percentageToSpeed(percentage, caps.speeds);
    Object.assign(values, { speedSetting: speed, speedCurrent: speed });
  }
  if (caps.oscillate) values.rockSetting = { rockLeftRight: booleanAttr(entity, "oscillating") === true };
  if (caps.sleepPreset || caps.naturalPreset) {
    values.windSetting = { sleepWind: on && preset === caps.sleepPreset, naturalWind: on && preset === caps.naturalPreset };
  }
  if (caps.direction) {
    values.airflowDirection = stringAttr(entity, "direction") === "reverse" ? AirflowDirection.Reverse : AirflowDirection.Forward;
  }
  return { fanControl: values, onOff: { onOff: on } };
}

const fanSignature = (context: KindContext) => JSON.stringify(features(fanCapabilities(context.snapshot.state)));

/** Fan (0x002B). */
export const fan: DeviceKind = {
  endpointType: (context) =>
    FanDevice.with(HaOnOffServer, HaFanControlServer.with(...features(fanCapabilities(context.snapshot.state)))),
  fixed: (context) => fixed(fanCapabilities(context.snapshot.state)),
  project: fanProject,
  signature: fanSignature,
};

/** Air Purifier (0x002D): an HA fan the user marked as purifier. */
export const airPurifier: DeviceKind = {
  ...fan,
  endpointType: (context) =>
    AirPurifierDevice.with(HaOnOffServer, HaFanControlServer.with(...features(fanCapabilities(context.snapshot.state)))),
};

/** The humidifier's target humidity as a percentage of its range. */
function humidityPercent(context: KindContext): number {
  const entity = context.snapshot.state;
  const min = numberAttr(entity, "min_humidity") ?? 0;
  const max = numberAttr(entity, "max_humidity") ?? 100;
  const target = numberAttr(entity, "humidity");
  if (target === undefined || max <= min) return 100;
  return Math.min(100, Math.max(1, Math.round(((target - min) * 100) / (max - min))));
}

/**
 * Humidifier as a Fan (0x002B) + RelativeHumidityMeasurement: Matter 1.4 has no humidifier device; the fan's
 * percentage is the target humidity within the entity's range and Auto is its automatic mode (RX does the same).
 */
export const humidifier: DeviceKind = {
  endpointType: (context) =>
    FanDevice.with(
      HaOnOffServer,
      HaFanControlServer.with(...features(humidifierCapabilities(context.snapshot.state), true)),
      RelativeHumidityMeasurementServer,
    ),
  fixed: (context) => ({
    ...fixed(humidifierCapabilities(context.snapshot.state), true),
    relativeHumidityMeasurement: { measuredValue: null, minMeasuredValue: 0, maxMeasuredValue: 10000 },
  }),
  project: (context): StatePatch => {
    const entity = context.snapshot.state;
    if (!hasValue(entity)) return {};
    const caps = humidifierCapabilities(entity);
    const on = entity?.state === "on";
    const percentage = on ? humidityPercent(context) : 0;
    const auto = on && caps.autoPreset !== undefined && stringAttr(entity, "mode") === caps.autoPreset;
    const current = numberAttr(entity, "current_humidity");
    return {
      onOff: { onOff: on },
      fanControl: {
        fanMode: !on ? FanMode.Off : auto ? FanMode.Auto : fanModeForPercentage(percentage, 100),
        percentSetting: percentage,
        percentCurrent: percentage,
      },
      relativeHumidityMeasurement: { measuredValue: current === undefined ? null : humidityToMatter(current) },
    };
  },
  signature: (context) => JSON.stringify(features(humidifierCapabilities(context.snapshot.state), true)),
};
