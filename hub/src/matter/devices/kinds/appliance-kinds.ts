/**
 * Door Lock (0x000A), Speaker (0x0022), Robotic Vacuum Cleaner (0x0074), Water Valve (0x0042) and Mode Select
 * (0x0027): the controllable non-light devices with one main cluster each.
 */
import { DoorLock } from "@matter/main/clusters/door-lock";
import { RvcOperationalState } from "@matter/main/clusters/rvc-operational-state";
import { ValveConfigurationAndControl } from "@matter/main/clusters/valve-configuration-and-control";
import { DoorLockDevice } from "@matter/main/devices/door-lock";
import { ModeSelectDevice } from "@matter/main/devices/mode-select";
import { RoboticVacuumCleanerDevice } from "@matter/main/devices/robotic-vacuum-cleaner";
import { SpeakerDevice } from "@matter/main/devices/speaker";
import { WaterValveDevice } from "@matter/main/devices/water-valve";
import { HaDoorLockServer } from "../../behaviors/door-lock-server.ts";
import { HaLevelControlServer } from "../../behaviors/level-control-server.ts";
import { HaModeSelectServer, MAX_MODES, modesForOptions } from "../../behaviors/mode-select-server.ts";
import { HaOnOffServer } from "../../behaviors/on-off-server.ts";
import { HaRvcOperationalStateServer } from "../../behaviors/rvc-operational-state-server.ts";
import { HaRvcRunModeServer, RUN_MODE_CLEANING, RUN_MODE_IDLE, RUN_MODES } from "../../behaviors/rvc-run-mode-server.ts";
import { HaValveServer } from "../../behaviors/valve-server.ts";
import { selectOptions, speakerCapabilities, valveHasPosition } from "../../model/capabilities.ts";
import { volumeToLevel } from "../../model/convert/light.ts";
import { numberAttr } from "../../model/ha-state.ts";
import { PIN_POLICY } from "../../model/pin-policy.ts";
import type { DeviceKind, KindContext, StatePatch } from "./kind.ts";
import { onOffValue } from "./light-kinds.ts";

const LOCK_STATES: Record<string, DoorLock.LockState> = {
  locked: DoorLock.LockState.Locked,
  locking: DoorLock.LockState.Locked,
  unlocked: DoorLock.LockState.Unlocked,
  unlocking: DoorLock.LockState.Unlocked,
  open: DoorLock.LockState.Unlocked,
  opening: DoorLock.LockState.Unlocked,
  jammed: DoorLock.LockState.NotFullyLocked,
};

/** Door Lock (0x000A): lock/unlock only; unlock asks the PIN hook (door-lock-server.ts). */
export const doorLock: DeviceKind = {
  endpointType: () => DoorLockDevice.with(HaDoorLockServer),
  fixed: () => ({
    doorLock: {
      lockState: null,
      lockType: DoorLock.LockType.DeadBolt,
      actuatorEnabled: true,
      operatingMode: DoorLock.OperatingMode.Normal,
      // Inverted bitmap (Matter 1.3 §5.2.6.9): 0 = supported. Only Normal; alwaysSet bits must be 1.
      supportedOperatingModes: {
        normal: false,
        vacation: true,
        privacy: true,
        noRemoteLockUnlock: true,
        passage: true,
        alwaysSet: 2047,
      },
      // PIN feature (door-lock-server.ts): one hub PIN per lock, the rules the hub enforces, no PIN required until
      // the lock has an enabled credential (the behavior sets and updates that).
      numberOfPinUsersSupported: 1,
      minPinCodeLength: PIN_POLICY.minLength,
      maxPinCodeLength: PIN_POLICY.maxLength,
      wrongCodeEntryLimit: PIN_POLICY.maxFailures,
      userCodeTemporaryDisableTime: PIN_POLICY.lockoutMs / 1000,
      requirePinForRemoteOperation: false,
    },
  }),
  project: (context) => ({ doorLock: { lockState: LOCK_STATES[context.snapshot.state?.state ?? ""] } }),
  signature: () => "lock",
};

/**
 * Speaker (0x0022): OnOff = sound on (unmuted) or power, LevelControl = volume (Device Library §10.4). LevelControl
 * without the OnOff/Lighting features (none required): volume must change while muted, and 0 is a valid volume.
 */
export const speaker: DeviceKind = {
  endpointType: () => SpeakerDevice.with(HaOnOffServer, HaLevelControlServer.with()),
  fixed: () => ({ onOff: { onOff: false }, levelControl: { currentLevel: 0, minLevel: 0, maxLevel: 254, onLevel: null } }),
  project: (context) => {
    const volume = numberAttr(context.snapshot.state, "volume_level");
    return {
      onOff: { onOff: onOffValue("media_player", context.snapshot.state) },
      levelControl: { currentLevel: volume === undefined ? undefined : volumeToLevel(volume) },
    };
  },
  signature: (context) => JSON.stringify(speakerCapabilities(context.snapshot.state)),
};

const Op = RvcOperationalState.OperationalState;
const VACUUM_STATES: Record<string, RvcOperationalState.OperationalState> = {
  cleaning: Op.Running,
  paused: Op.Paused,
  returning: Op.SeekingCharger,
  docked: Op.Docked,
  idle: Op.Stopped,
  error: Op.Error,
};

/** Robotic Vacuum Cleaner (0x0074): run mode Idle/Cleaning plus operational state (research complaints #9, #10). */
export const roboticVacuumCleaner: DeviceKind = {
  endpointType: () => RoboticVacuumCleanerDevice.with(HaRvcRunModeServer, HaRvcOperationalStateServer),
  fixed: () => ({
    rvcRunMode: { supportedModes: RUN_MODES, currentMode: RUN_MODE_IDLE },
    rvcOperationalState: {
      operationalStateList: Object.values(VACUUM_STATES)
        .filter((id, index, all) => all.indexOf(id) === index)
        .map((operationalStateId) => ({ operationalStateId })),
      operationalState: Op.Stopped,
      operationalError: { errorStateId: RvcOperationalState.ErrorState.NoError },
      phaseList: null,
      currentPhase: null,
    },
  }),
  project: (context): StatePatch => {
    const state = context.snapshot.state?.state ?? "";
    const operational = VACUUM_STATES[state];
    if (operational === undefined) return {};
    const error =
      operational === Op.Error
        ? RvcOperationalState.ErrorState.UnableToCompleteOperation
        : RvcOperationalState.ErrorState.NoError;
    return {
      rvcRunMode: { currentMode: operational === Op.Running || operational === Op.Paused ? RUN_MODE_CLEANING : RUN_MODE_IDLE },
      rvcOperationalState: { operationalState: operational, operationalError: { errorStateId: error } },
    };
  },
  signature: () => "rvc",
};

const Valve = ValveConfigurationAndControl.ValveState;

function valvePatch(context: KindContext) {
  const state = context.snapshot.state?.state;
  const current =
    state === "open"
      ? Valve.Open
      : state === "closed"
        ? Valve.Closed
        : state === "opening" || state === "closing"
          ? Valve.Transitioning
          : undefined;
  const target = state === "opening" ? Valve.Open : state === "closing" ? Valve.Closed : current;
  const values: Record<string, unknown> = { currentState: current, targetState: target };
  if (valveHasPosition(context.snapshot.state)) {
    const position = numberAttr(context.snapshot.state, "current_position");
    const level =
      position === undefined ? (current === Valve.Open ? 100 : current === Valve.Closed ? 0 : undefined) : Math.round(position);
    values.currentLevel = level;
    if (current !== Valve.Transitioning) values.targetLevel = level;
  }
  return { valveConfigurationAndControl: values };
}

/** Water Valve (0x0042): open/close, and a level when HA reports a position. */
export const waterValve: DeviceKind = {
  endpointType: (context) =>
    WaterValveDevice.with(
      valveHasPosition(context.snapshot.state)
        ? HaValveServer.with(ValveConfigurationAndControl.Feature.Level)
        : HaValveServer.with(),
    ),
  fixed: () => ({
    valveConfigurationAndControl: {
      openDuration: null,
      defaultOpenDuration: null,
      remainingDuration: null,
      currentState: null,
      targetState: null,
    },
  }),
  project: valvePatch,
  signature: (context) => String(valveHasPosition(context.snapshot.state)),
};

/** Mode Select (0x0027): one mode per `select`/`input_select` option. */
export const modeSelect: DeviceKind = {
  endpointType: () => ModeSelectDevice.with(HaModeSelectServer),
  fixed: (context) => {
    // ModeSelect needs a mode to start in; an entity without options yet gets one placeholder mode.
    const options = selectOptions(context.snapshot.state);
    const modes = modesForOptions(options.length > 0 ? options : [context.snapshot.name || "Mode"]);
    return {
      modeSelect: {
        description: context.snapshot.name.slice(0, 64),
        standardNamespace: null,
        supportedModes: modes,
        currentMode: 0,
      },
    };
  },
  project: (context): StatePatch => {
    const options = selectOptions(context.snapshot.state);
    if (options.length === 0) return {};
    const index = options.indexOf(context.snapshot.state?.state ?? "");
    // An option past the 255 a controller can see leaves the current mode as it was.
    const current = index === -1 || index >= MAX_MODES ? undefined : index;
    return { modeSelect: { supportedModes: modesForOptions(options), currentMode: current } };
  },
  signature: () => "mode_select",
};
