/**
 * The reference: a minimal matter.js bridge, the floor the hub can approach. One ServerNode per bridge with an
 * Aggregator and one bridged endpoint per device of the plan, of the same Matter device type (and cluster features)
 * the hub chose, built from matter.js's stock servers. No HTTP, no Home Assistant, no hub code: state changes come
 * over IPC (`ReferenceSet`), commands are reported over IPC (`ReferenceCommand`), readiness on stdout.
 * Run by the benchmark drivers only, inside the private network namespace, with bench/sut-probe preloaded.
 */
import { readFileSync } from "node:fs";
import { type Behavior, Endpoint, Environment, ServerNode, type ServerNode as ServerNodeType, VendorId } from "@matter/main";
import { BridgedDeviceBasicInformationServer } from "@matter/main/behaviors/bridged-device-basic-information";
import { ColorControlServer } from "@matter/main/behaviors/color-control";
import { DoorLockServer } from "@matter/main/behaviors/door-lock";
import { ElectricalEnergyMeasurementServer } from "@matter/main/behaviors/electrical-energy-measurement";
import { ElectricalPowerMeasurementServer } from "@matter/main/behaviors/electrical-power-measurement";
import { FanControlServer } from "@matter/main/behaviors/fan-control";
import { LevelControlServer } from "@matter/main/behaviors/level-control";
import { OccupancySensingServer } from "@matter/main/behaviors/occupancy-sensing";
import { OnOffServer } from "@matter/main/behaviors/on-off";
import { PowerSourceServer } from "@matter/main/behaviors/power-source";
import { PowerTopologyServer } from "@matter/main/behaviors/power-topology";
import { ThermostatServer } from "@matter/main/behaviors/thermostat";
import { WindowCoveringServer } from "@matter/main/behaviors/window-covering";
import { ColorControl } from "@matter/main/clusters/color-control";
import { DoorLock } from "@matter/main/clusters/door-lock";
import { ElectricalEnergyMeasurement } from "@matter/main/clusters/electrical-energy-measurement";
import { ElectricalPowerMeasurement } from "@matter/main/clusters/electrical-power-measurement";
import { FanControl } from "@matter/main/clusters/fan-control";
import { LevelControl } from "@matter/main/clusters/level-control";
import { OccupancySensing } from "@matter/main/clusters/occupancy-sensing";
import { OnOff } from "@matter/main/clusters/on-off";
import { PowerSource } from "@matter/main/clusters/power-source";
import { PowerTopology } from "@matter/main/clusters/power-topology";
import { Thermostat } from "@matter/main/clusters/thermostat";
import { WindowCovering } from "@matter/main/clusters/window-covering";
import { ColorTemperatureLightDevice } from "@matter/main/devices/color-temperature-light";
import { ContactSensorDevice } from "@matter/main/devices/contact-sensor";
import { DimmableLightDevice } from "@matter/main/devices/dimmable-light";
import { DimmablePlugInUnitDevice } from "@matter/main/devices/dimmable-plug-in-unit";
import { DoorLockDevice } from "@matter/main/devices/door-lock";
import { ExtendedColorLightDevice } from "@matter/main/devices/extended-color-light";
import { FanDevice } from "@matter/main/devices/fan";
import { FlowSensorDevice } from "@matter/main/devices/flow-sensor";
import { HumiditySensorDevice } from "@matter/main/devices/humidity-sensor";
import { LightSensorDevice } from "@matter/main/devices/light-sensor";
import { OccupancySensorDevice } from "@matter/main/devices/occupancy-sensor";
import { OnOffLightDevice } from "@matter/main/devices/on-off-light";
import { OnOffPlugInUnitDevice } from "@matter/main/devices/on-off-plug-in-unit";
import { PressureSensorDevice } from "@matter/main/devices/pressure-sensor";
import { SpeakerDevice } from "@matter/main/devices/speaker";
import { TemperatureSensorDevice } from "@matter/main/devices/temperature-sensor";
import { ThermostatDevice } from "@matter/main/devices/thermostat";
import { WaterLeakDetectorDevice } from "@matter/main/devices/water-leak-detector";
import { WindowCoveringDevice } from "@matter/main/devices/window-covering";
import { AggregatorEndpoint } from "@matter/main/endpoints/aggregator";
import { ElectricalSensorEndpoint } from "@matter/main/endpoints/electrical-sensor";
import { MeasurementType } from "@matter/main/types";
import type { ReferenceCommand, ReferencePlan, ReferenceReady, ReferenceSet } from "./reference-plan.ts";

const planPath = process.env.BENCH_PLAN;
if (!planPath) throw new Error("reference-bridge: BENCH_PLAN (a plan JSON file) is required");
const plan = JSON.parse(readFileSync(planPath, "utf8")) as ReferencePlan;
Environment.default.vars.set("storage.path", plan.storagePath);
// The benchmark stops the process with SIGTERM and closes the nodes itself (below).
Environment.default.vars.set("runtime.signals", false);

/** Reports each OnOff command to the driver before acting on it: the reference's "service call". */
function reportingOnOff(bridge: number) {
  const report = (endpoint: string, command: string) =>
    process.send?.({ ref: "command", bridge, endpoint, command } satisfies ReferenceCommand);
  return class ReportingOnOffServer extends OnOffServer {
    override on() {
      report(this.endpoint.id, "on");
      return super.on();
    }
    override off() {
      report(this.endpoint.id, "off");
      return super.off();
    }
    override toggle() {
      report(this.endpoint.id, "toggle");
      return super.toggle();
    }
  };
}

const LightLevel = LevelControlServer.with(LevelControl.Feature.OnOff, LevelControl.Feature.Lighting);
const LEVEL = { levelControl: { minLevel: 1, maxLevel: 254, currentLevel: 254, onLevel: null, remainingTime: 0 } };
/** A white in the middle of 2000-6500 K, as the hub starts a colour light that has not reported a colour yet. */
function colour(full: boolean) {
  const mode = ColorControl.ColorMode.ColorTemperatureMireds;
  return {
    ...LEVEL,
    colorControl: {
      colorMode: mode,
      enhancedColorMode: mode,
      ...(full ? { currentHue: 0, currentSaturation: 0, currentX: 20493, currentY: 21561 } : {}),
      colorTempPhysicalMinMireds: 154,
      colorTempPhysicalMaxMireds: 500,
      coupleColorTempToLevelMinMireds: 154,
      colorTemperatureMireds: 327,
      remainingTime: 0,
    },
  };
}

/** The stock matter.js type for each hub device type key, with the cluster features the hub gives it. */
function endpointType(key: string, bridge: number) {
  const OnOffBase = reportingOnOff(bridge);
  const LightOnOff = OnOffBase.with(OnOff.Feature.Lighting);
  switch (key) {
    case "on_off_light":
      return { type: OnOffLightDevice.with(LightOnOff) };
    case "on_off_plugin_unit":
      return { type: OnOffPlugInUnitDevice.with(LightOnOff) };
    case "dimmable_light":
      return { type: DimmableLightDevice.with(LightOnOff, LightLevel), state: LEVEL };
    case "dimmable_plug_in_unit":
      return { type: DimmablePlugInUnitDevice.with(LightOnOff, LightLevel), state: LEVEL };
    case "color_temperature_light":
      return {
        type: ColorTemperatureLightDevice.with(
          LightOnOff,
          LightLevel,
          ColorControlServer.with(ColorControl.Feature.ColorTemperature),
        ),
        state: colour(false),
      };
    case "extended_color_light":
      return {
        type: ExtendedColorLightDevice.with(
          LightOnOff,
          LightLevel,
          ColorControlServer.with(
            ColorControl.Feature.HueSaturation,
            ColorControl.Feature.Xy,
            ColorControl.Feature.ColorTemperature,
          ),
        ),
        state: colour(true),
      };
    case "temperature_sensor":
      return { type: TemperatureSensorDevice, state: { temperatureMeasurement: { measuredValue: 2100 } } };
    case "humidity_sensor":
      return { type: HumiditySensorDevice, state: { relativeHumidityMeasurement: { measuredValue: 4500 } } };
    case "pressure_sensor":
      return { type: PressureSensorDevice, state: { pressureMeasurement: { measuredValue: 1013 } } };
    case "flow_sensor":
      return { type: FlowSensorDevice, state: { flowMeasurement: { measuredValue: 0 } } };
    case "light_sensor":
      return { type: LightSensorDevice, state: { illuminanceMeasurement: { measuredValue: 10000 } } };
    case "occupancy_sensor":
      return {
        type: OccupancySensorDevice.with(OccupancySensingServer.with(OccupancySensing.Feature.PassiveInfrared)),
        state: { occupancySensing: { occupancy: { occupied: false } } },
      };
    case "contact_sensor":
      return { type: ContactSensorDevice, state: { booleanState: { stateValue: true } } };
    case "water_leak_detector":
      return { type: WaterLeakDetectorDevice, state: { booleanState: { stateValue: false } } };
    case "window_covering":
      return {
        type: WindowCoveringDevice.with(
          WindowCoveringServer.with(WindowCovering.Feature.Lift, WindowCovering.Feature.PositionAwareLift),
        ),
        state: { windowCovering: { currentPositionLiftPercent100ths: 0, targetPositionLiftPercent100ths: 0 } },
      };
    case "thermostat":
      return {
        type: ThermostatDevice.with(ThermostatServer.with(Thermostat.Feature.Heating)),
        state: {
          thermostat: {
            localTemperature: 2000,
            occupiedHeatingSetpoint: 2050,
            controlSequenceOfOperation: Thermostat.ControlSequenceOfOperation.HeatingOnly,
            systemMode: Thermostat.SystemMode.Heat,
          },
        },
      };
    case "fan":
      return {
        type: FanDevice.with(OnOffBase, FanControlServer.with(FanControl.Feature.MultiSpeed, FanControl.Feature.Step)),
        state: { fanControl: { fanModeSequence: FanControl.FanModeSequence.OffLowMedHigh, speedMax: 4 } },
      };
    case "door_lock":
      return {
        type: DoorLockDevice.with(DoorLockServer),
        state: {
          doorLock: {
            lockState: DoorLock.LockState.Locked,
            lockType: DoorLock.LockType.DeadBolt,
            actuatorEnabled: true,
            operatingMode: DoorLock.OperatingMode.Normal,
            supportedOperatingModes: {
              normal: false,
              vacation: true,
              privacy: true,
              noRemoteLockUnlock: true,
              passage: true,
              alwaysSet: 2047,
            },
            wrongCodeEntryLimit: 5,
            userCodeTemporaryDisableTime: 60,
          },
        },
      };
    case "speaker":
      return {
        type: SpeakerDevice.with(OnOffBase, LevelControlServer.with()),
        state: { onOff: { onOff: false }, levelControl: { currentLevel: 0, minLevel: 0, maxLevel: 254, onLevel: null } },
      };
    case "electrical_sensor":
      // The bare device type: its clusters are the electrical facet's (below), its own sensor among them.
      return { type: ElectricalSensorEndpoint };
    default:
      throw new Error(`reference-bridge: no stock type for device type key "${key}"`);
  }
}

/** Mandatory accuracy of a measured quantity (the hub states the same). */
function accuracy(measurementType: MeasurementType) {
  const max = Number.MAX_SAFE_INTEGER;
  return {
    measurementType,
    measured: true,
    minMeasuredValue: 0,
    maxMeasuredValue: max,
    accuracyRanges: [{ rangeMin: 0, rangeMax: max, fixedMax: 1 }],
  };
}

const POWER_ROLES = [
  ["power", "activePower", MeasurementType.ActivePower],
  ["voltage", "voltage", MeasurementType.Voltage],
  ["current", "activeCurrent", MeasurementType.ActiveCurrent],
] as const;

/**
 * The stock clusters a composed hub endpoint carries besides its own (the hub's devices/facets): Power Source with
 * the Battery feature (Rechargeable with a charging sensor) for battery roles; Power Topology (TREE), Electrical
 * Power Measurement (AC) and Electrical Energy Measurement (imported, cumulative) for electrical roles.
 */
function facets(roles: readonly string[]): { behaviors: Behavior.Type[]; state: Record<string, Record<string, unknown>> } {
  const behaviors: Behavior.Type[] = [];
  const state: Record<string, Record<string, unknown>> = {};
  const has = (role: string) => roles.includes(role);
  if (has("battery") || has("battery_low")) {
    const charging = has("battery_charging");
    behaviors.push(
      charging
        ? PowerSourceServer.with(PowerSource.Feature.Battery, PowerSource.Feature.Rechargeable)
        : PowerSourceServer.with(PowerSource.Feature.Battery),
    );
    state.powerSource = {
      status: PowerSource.PowerSourceStatus.Active,
      order: 0,
      description: "Battery",
      batReplaceability: PowerSource.BatReplaceability.Unspecified,
      batReplacementNeeded: false,
      batChargeLevel: PowerSource.BatChargeLevel.Ok,
      batPercentRemaining: has("battery") ? 160 : null,
      ...(charging ? { batFunctionalWhileCharging: true, batChargeState: PowerSource.BatChargeState.IsNotCharging } : {}),
    };
  }
  const measured = POWER_ROLES.filter(([role]) => has(role));
  if (measured.length > 0 || has("energy")) behaviors.push(PowerTopologyServer.with(PowerTopology.Feature.TreeTopology));
  if (measured.length > 0) {
    behaviors.push(ElectricalPowerMeasurementServer.with(ElectricalPowerMeasurement.Feature.AlternatingCurrent));
    const values: Record<string, unknown> = {
      powerMode: ElectricalPowerMeasurement.PowerMode.Ac,
      numberOfMeasurementTypes: measured.length,
      accuracy: measured.map(([, , type]) => accuracy(type)),
      activePower: null,
    };
    for (const [, attribute] of measured) values[attribute] = 1000;
    state.electricalPowerMeasurement = values;
  }
  if (has("energy")) {
    behaviors.push(
      ElectricalEnergyMeasurementServer.with(
        ElectricalEnergyMeasurement.Feature.ImportedEnergy,
        ElectricalEnergyMeasurement.Feature.CumulativeEnergy,
      ),
    );
    state.electricalEnergyMeasurement = {
      accuracy: accuracy(MeasurementType.ElectricalEnergy),
      cumulativeEnergyImported: { energy: 1000 },
    };
  }
  return { behaviors, state };
}

const nodes: ServerNodeType[] = [];
const devicesById: Map<string, Endpoint>[] = [];

for (const [index, bridge] of plan.bridges.entries()) {
  const node = await ServerNode.create({
    id: bridge.id,
    network: { port: bridge.port },
    commissioning: { passcode: bridge.passcode, discriminator: bridge.discriminator },
    productDescription: { name: `Reference ${index + 1}`, deviceType: AggregatorEndpoint.deviceType },
    basicInformation: {
      vendorName: "Matter Hub bench",
      vendorId: VendorId(0xfff1),
      productName: "Reference bridge",
      productId: 0x8000,
      nodeLabel: `Reference ${index + 1}`,
      serialNumber: `ref-${bridge.id}`,
      uniqueId: `uid-ref-${bridge.id}`,
      hardwareVersion: 1,
      softwareVersion: 1,
    },
  });
  const aggregator = new Endpoint(AggregatorEndpoint, { id: "aggregator" });
  await node.add(aggregator);
  const byId = new Map<string, Endpoint>();
  for (const device of bridge.devices) {
    const { type, state } = endpointType(device.key, index);
    const extra = facets(device.carries ?? []);
    const options = {
      id: device.id,
      ...state,
      ...extra.state,
      bridgedDeviceBasicInformation: {
        nodeLabel: device.label.slice(0, 32),
        uniqueId: `u-${device.id}`.slice(0, 32),
        reachable: true,
      },
    };
    const endpoint = new Endpoint(
      type.with(BridgedDeviceBasicInformationServer, ...extra.behaviors),
      options as unknown as Endpoint.Options,
    );
    await aggregator.add(endpoint);
    // EndpointList names the endpoint itself (empty would mean the whole bridge), as the hub's battery does.
    if (extra.state.powerSource) await endpoint.set({ powerSource: { endpointList: [endpoint.number] } } as never);
    byId.set(device.id, endpoint);
  }
  await node.start();
  nodes.push(node);
  devicesById.push(byId);
  const endpoints: Record<string, number> = {};
  for (const [id, endpoint] of byId) endpoints[id] = endpoint.number;
  const ready: ReferenceReady = {
    msg: "reference bridge running",
    bridge: index,
    manualPairingCode: node.state.commissioning.pairingCodes.manualPairingCode,
    endpoints,
  };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
}

process.on("message", (message: ReferenceSet) => {
  if (typeof message !== "object" || message === null || message.ref !== "set") return;
  for (const [bridge, id, patch] of message.changes) {
    const endpoint = devicesById[bridge]?.get(id);
    if (endpoint) endpoint.set(patch as never).catch((error: unknown) => process.stderr.write(`set ${id}: ${String(error)}\n`));
  }
});

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  setTimeout(() => process.exit(1), 15_000).unref();
  for (const node of nodes) await node.close().catch(() => undefined);
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
