/**
 * The cluster ids a plugin may name (docs/plugins.md "Cluster ids": matter.js behavior ids, case-sensitive) and the
 * plain matter.js server each becomes. Plugin devices use the stock servers, not the HA-backed ones: a plugin owns
 * its device's state, so commands simply change attributes and the plugin hears about it through onAttributeWrite.
 * Features follow the initial attributes where Matter makes them optional (fan speeds, rocking, wind, direction).
 */
import type { Behavior } from "@matter/main";
import { AirQualityServer } from "@matter/main/behaviors/air-quality";
import { BooleanStateServer } from "@matter/main/behaviors/boolean-state";
import { ColorControlServer } from "@matter/main/behaviors/color-control";
import { DoorLockServer } from "@matter/main/behaviors/door-lock";
import { FanControlServer } from "@matter/main/behaviors/fan-control";
import { FlowMeasurementServer } from "@matter/main/behaviors/flow-measurement";
import { IlluminanceMeasurementServer } from "@matter/main/behaviors/illuminance-measurement";
import { LevelControlServer } from "@matter/main/behaviors/level-control";
import { OccupancySensingServer } from "@matter/main/behaviors/occupancy-sensing";
import { OnOffServer } from "@matter/main/behaviors/on-off";
import { PressureMeasurementServer } from "@matter/main/behaviors/pressure-measurement";
import { RelativeHumidityMeasurementServer } from "@matter/main/behaviors/relative-humidity-measurement";
import { SwitchServer } from "@matter/main/behaviors/switch";
import { TemperatureMeasurementServer } from "@matter/main/behaviors/temperature-measurement";
import { ThermostatServer } from "@matter/main/behaviors/thermostat";
import { WindowCoveringServer } from "@matter/main/behaviors/window-covering";
import { AirQuality } from "@matter/main/clusters/air-quality";
import { ColorControl } from "@matter/main/clusters/color-control";
import { DoorLock } from "@matter/main/clusters/door-lock";
import { FanControl } from "@matter/main/clusters/fan-control";
import { LevelControl } from "@matter/main/clusters/level-control";
import { OccupancySensing } from "@matter/main/clusters/occupancy-sensing";
import { OnOff } from "@matter/main/clusters/on-off";
import { Switch } from "@matter/main/clusters/switch";
import { Thermostat } from "@matter/main/clusters/thermostat";
import { WindowCovering } from "@matter/main/clusters/window-covering";

export type Attributes = Record<string, unknown>;

/** How one cluster id becomes a server: the behavior (features from the attributes) and its default values. */
export interface ClusterServerSpec {
  server(attributes: Attributes, deviceType: string): Behavior.Type;
  defaults(attributes: Attributes, deviceType: string): Attributes;
}

const measurement = (server: Behavior.Type, range: Attributes = { minMeasuredValue: null, maxMeasuredValue: null }) => ({
  server: () => server,
  defaults: () => ({ measuredValue: null, ...range }),
});

/** FanModeSequence values whose sequence includes Auto (Matter 1.3 §4.4.5.2). */
const AUTO_SEQUENCES = new Set([2, 3, 4]);

function fanFeatures(attributes: Attributes): FanControl.Feature[] {
  const features: FanControl.Feature[] = [];
  if (attributes.speedMax !== undefined) features.push(FanControl.Feature.MultiSpeed);
  if (AUTO_SEQUENCES.has(attributes.fanModeSequence as number)) features.push(FanControl.Feature.Auto);
  if (attributes.rockSupport !== undefined) features.push(FanControl.Feature.Rocking);
  if (attributes.windSupport !== undefined) features.push(FanControl.Feature.Wind);
  if (attributes.airflowDirection !== undefined) features.push(FanControl.Feature.AirflowDirection);
  return features;
}

const MIREDS = { min: 153, max: 500 };

/** Every cluster id a plugin may use; the twelve of the spec plus the ones some device types cannot do without. */
export const CLUSTER_SERVERS: Readonly<Record<string, ClusterServerSpec>> = {
  onOff: { server: () => OnOffServer.with(OnOff.Feature.Lighting), defaults: () => ({ onOff: false }) },
  levelControl: {
    server: () => LevelControlServer.with(LevelControl.Feature.OnOff, LevelControl.Feature.Lighting),
    defaults: () => ({ currentLevel: 254, minLevel: 1, maxLevel: 254, onLevel: null, remainingTime: 0 }),
  },
  colorControl: {
    server: (_attributes, deviceType) =>
      deviceType === "color_temperature_light"
        ? ColorControlServer.with(ColorControl.Feature.ColorTemperature)
        : ColorControlServer.with(
            ColorControl.Feature.HueSaturation,
            ColorControl.Feature.Xy,
            ColorControl.Feature.ColorTemperature,
          ),
    defaults: (_attributes, deviceType) => ({
      colorMode: ColorControl.ColorMode.ColorTemperatureMireds,
      enhancedColorMode: ColorControl.ColorMode.ColorTemperatureMireds,
      colorTempPhysicalMinMireds: MIREDS.min,
      colorTempPhysicalMaxMireds: MIREDS.max,
      coupleColorTempToLevelMinMireds: MIREDS.min,
      colorTemperatureMireds: 250,
      remainingTime: 0,
      ...(deviceType === "color_temperature_light"
        ? {}
        : { currentHue: 0, currentSaturation: 0, currentX: 20495, currentY: 21561 }),
    }),
  },
  pressureMeasurement: measurement(PressureMeasurementServer),
  flowMeasurement: measurement(FlowMeasurementServer),
  temperatureMeasurement: measurement(TemperatureMeasurementServer),
  relativeHumidityMeasurement: measurement(RelativeHumidityMeasurementServer, { minMeasuredValue: 0, maxMeasuredValue: 10000 }),
  illuminanceMeasurement: measurement(IlluminanceMeasurementServer),
  windowCovering: {
    server: () => WindowCoveringServer.with(WindowCovering.Feature.Lift, WindowCovering.Feature.PositionAwareLift),
    defaults: () => ({
      type: WindowCovering.WindowCoveringType.Rollershade,
      endProductType: WindowCovering.EndProductType.RollerShade,
      configStatus: { operational: true, onlineReserved: true, liftPositionAware: true, tiltPositionAware: false },
      currentPositionLiftPercent100ths: 0,
      targetPositionLiftPercent100ths: 0,
      mode: {},
    }),
  },
  booleanState: {
    server: () => BooleanStateServer,
    // A contact sensor's StateValue true means "contact" (closed); for the leak detector true means "leak".
    defaults: (_attributes, deviceType) => ({ stateValue: deviceType === "contact_sensor" }),
  },
  occupancySensing: {
    server: () => OccupancySensingServer.with(OccupancySensing.Feature.PassiveInfrared),
    defaults: () => ({ occupancy: { occupied: false } }),
  },
  fanControl: {
    server: (attributes) => FanControlServer.with(...fanFeatures(attributes)),
    defaults: (attributes) => ({
      fanMode: FanControl.FanMode.Off,
      percentSetting: 0,
      percentCurrent: 0,
      ...(attributes.speedMax !== undefined ? { speedSetting: 0, speedCurrent: 0 } : {}),
      ...(attributes.rockSupport !== undefined ? { rockSetting: {} } : {}),
      ...(attributes.windSupport !== undefined ? { windSetting: {} } : {}),
    }),
  },
  doorLock: {
    server: () => DoorLockServer,
    defaults: () => ({
      lockState: DoorLock.LockState.Locked,
      lockType: DoorLock.LockType.DeadBolt,
      actuatorEnabled: true,
      operatingMode: DoorLock.OperatingMode.Normal,
      // matter.js's server validates these even without the PIN feature (its defaults of 0 are out of range).
      wrongCodeEntryLimit: 3,
      userCodeTemporaryDisableTime: 10,
    }),
  },
  airQuality: {
    server: () =>
      AirQualityServer.with(
        AirQuality.Feature.Fair,
        AirQuality.Feature.Moderate,
        AirQuality.Feature.VeryPoor,
        AirQuality.Feature.ExtremelyPoor,
      ),
    defaults: () => ({ airQuality: AirQuality.AirQualityEnum.Unknown }),
  },
  thermostat: {
    server: () => ThermostatServer.with(Thermostat.Feature.Heating, Thermostat.Feature.Cooling),
    defaults: () => ({
      controlSequenceOfOperation: Thermostat.ControlSequenceOfOperation.CoolingAndHeating,
      systemMode: Thermostat.SystemMode.Off,
      localTemperature: null,
      occupiedHeatingSetpoint: 2000,
      occupiedCoolingSetpoint: 2600,
    }),
  },
  switch: {
    server: () =>
      SwitchServer.with(
        Switch.Feature.MomentarySwitch,
        Switch.Feature.MomentarySwitchRelease,
        Switch.Feature.MomentarySwitchLongPress,
      ),
    defaults: () => ({ numberOfPositions: 2, currentPosition: 0 }),
  },
};

/** True for a cluster id a plugin may use (case-sensitive: `onOff`, never `OnOff`). */
export function isPluginClusterId(id: string): boolean {
  return Object.hasOwn(CLUSTER_SERVERS, id);
}
