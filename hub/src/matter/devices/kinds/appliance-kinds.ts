/**
 * Door Lock (0x000A) and Speaker (0x0022). The other appliances (vacuum, valve, mode select) have their own modules,
 * loaded with the first device of their type (index.ts).
 */
import { DoorLock } from "@matter/main/clusters/door-lock";
import { DoorLockDevice } from "@matter/main/devices/door-lock";
import { SpeakerDevice } from "@matter/main/devices/speaker";
import { HaDoorLockServer } from "../../behaviors/door-lock-server.ts";
import { HaLevelControlServer } from "../../behaviors/level-control-server.ts";
import { HaOnOffServer } from "../../behaviors/on-off-server.ts";
import { speakerCapabilities } from "../../model/capabilities.ts";
import { volumeToLevel } from "../../model/convert/light.ts";
import { numberAttr } from "../../model/ha-state.ts";
import { PIN_POLICY } from "../../model/pin-policy.ts";
import type { DeviceKind } from "./kind.ts";
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
