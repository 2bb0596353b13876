/**
 * Matrix rows for the one-cluster appliances (hub/src/matter/devices/kinds/: appliance-kinds.ts, vacuum-kind.ts,
 * valve-kind.ts, mode-select-kind.ts): a lock with a hub PIN, a vacuum, a speaker, a valve and selects, on entities
 * of the simulated demo home.
 */
import { type DeviceCase, type Effect, onOff } from "./device-case.ts";

const VOLUME: Effect = { ha: "media_player.volume_set" };

/** The lock PIN the test sets through the hub's credentials API (docs/lock-credentials.md). */
export const LOCK_PIN = "1234";

export const APPLIANCE_CASES: DeviceCase[] = [
  {
    key: "door_lock",
    variant: "lock with a hub PIN",
    source: { entityId: "lock.front_door" },
    deviceType: 0x000a,
    report: { change: { state: "unlocked" }, cluster: "DoorLock", attribute: "LockState", expected: 2 },
    commands: [
      {
        action: { invoke: "DoorLock", command: "UnlockDoor", args: { PINCode: { text: LOCK_PIN } }, timedMs: 5000 },
        effect: { ha: "lock.unlock" },
      },
      { action: { invoke: "DoorLock", command: "LockDoor", timedMs: 5000 }, effect: { ha: "lock.lock" } },
    ],
    errors: [
      {
        label: "UnlockDoor with a wrong PIN",
        action: { invoke: "DoorLock", command: "UnlockDoor", args: { PINCode: { text: "9999" } }, timedMs: 5000 },
        status: "Failure",
      },
      {
        label: "UnlockDoor without a PIN",
        action: { invoke: "DoorLock", command: "UnlockDoor", timedMs: 5000 },
        status: "Failure",
      },
    ],
  },
  {
    key: "robotic_vacuum_cleaner",
    variant: "vacuum",
    source: { entityId: "vacuum.roborock_s8" },
    deviceType: 0x0074,
    report: { change: { state: "returning" }, cluster: "RvcOperationalState", attribute: "OperationalState", expected: 0x40 },
    commands: [
      {
        action: { invoke: "RvcRunMode", command: "ChangeToMode", args: { newMode: 1 } },
        effect: { ha: "vacuum.start" },
        response: { status: 0 },
      },
      { action: { invoke: "RvcOperationalState", command: "Pause" }, effect: { ha: "vacuum.pause" } },
      { action: { invoke: "RvcOperationalState", command: "Resume" }, effect: { ha: "vacuum.start" } },
      { action: { invoke: "RvcOperationalState", command: "GoHome" }, effect: { ha: "vacuum.return_to_base" } },
    ],
    errors: [
      {
        label: "ChangeToMode to a mode that does not exist",
        action: { invoke: "RvcRunMode", command: "ChangeToMode", args: { newMode: 7 } },
        response: { status: 1 },
      },
    ],
  },
  {
    key: "speaker",
    variant: "media player without mute",
    source: { entityId: "media_player.bedroom_speaker" },
    deviceType: 0x0022,
    report: {
      change: { state: "playing", attributes: { volume_level: 0.8 } },
      cluster: "LevelControl",
      attribute: "CurrentLevel",
      expected: 203,
    },
    commands: [
      {
        action: { invoke: "LevelControl", command: "MoveToLevel", args: { level: 127 } },
        effect: { ha: "media_player.volume_set", data: { volume_level: 0.5 } },
      },
      {
        action: { invoke: "LevelControl", command: "Move", args: { moveMode: 0, rate: 254 } },
        effect: { ha: "media_player.volume_set", data: { volume_level: 1 } },
      },
      { action: { invoke: "LevelControl", command: "Stop" }, effect: VOLUME },
      {
        action: { invoke: "LevelControl", command: "Step", args: { stepMode: 1, stepSize: 127, transitionTime: 0 } },
        effect: VOLUME,
      },
      // The WithOnOff variants set the volume only: OnOff is power (or mute) for a speaker, not "audible at all".
      {
        action: { invoke: "LevelControl", command: "MoveToLevelWithOnOff", args: { level: 127 } },
        effect: { ha: "media_player.volume_set", data: { volume_level: 0.5 } },
      },
      {
        action: { invoke: "LevelControl", command: "MoveWithOnOff", args: { moveMode: 1, rate: 254 } },
        effect: { ha: "media_player.volume_set", data: { volume_level: 0 } },
      },
      { action: { invoke: "LevelControl", command: "StopWithOnOff" }, effect: VOLUME },
      {
        action: { invoke: "LevelControl", command: "StepWithOnOff", args: { stepMode: 0, stepSize: 254, transitionTime: 0 } },
        effect: { ha: "media_player.volume_set", data: { volume_level: 1 } },
      },
      { action: onOff("Off"), effect: { ha: "media_player.turn_off" } },
      { action: onOff("On"), effect: { ha: "media_player.turn_on" } },
      { action: onOff("Toggle"), effect: { ha: "media_player.turn_off" } },
    ],
    errors: [
      {
        label: "MoveToLevel level 255 (above MaxLevel 254)",
        action: { invoke: "LevelControl", command: "MoveToLevel", args: { level: 255 } },
        status: "ConstraintError",
      },
    ],
  },
  {
    key: "water_valve",
    variant: "valve with position",
    source: { entityId: "valve.garden_irrigation" },
    deviceType: 0x0042,
    report: {
      change: { state: "open", attributes: { current_position: 100 } },
      cluster: "ValveConfigurationAndControl",
      attribute: "CurrentState",
      expected: 1,
    },
    commands: [
      {
        action: { invoke: "ValveConfigurationAndControl", command: "Open", args: { targetLevel: 50 } },
        effect: { ha: "valve.set_valve_position", data: { position: 50 } },
      },
      { action: { invoke: "ValveConfigurationAndControl", command: "Close" }, effect: { ha: "valve.close_valve" } },
      { action: { invoke: "ValveConfigurationAndControl", command: "Open" }, effect: { ha: "valve.open_valve" } },
    ],
    errors: [
      {
        label: "Open with an OpenDuration (auto-close is not offered)",
        action: { invoke: "ValveConfigurationAndControl", command: "Open", args: { openDuration: 60 } },
        status: "ConstraintError",
      },
      {
        label: "Open to TargetLevel 101",
        action: { invoke: "ValveConfigurationAndControl", command: "Open", args: { targetLevel: 101 } },
        status: "ConstraintError",
      },
    ],
  },
  {
    key: "mode_select",
    variant: "input_select",
    source: { entityId: "input_select.house_mode" },
    deviceType: 0x0027,
    report: { change: { state: "Away" }, cluster: "ModeSelect", attribute: "CurrentMode", expected: 1 },
    commands: [
      {
        action: { invoke: "ModeSelect", command: "ChangeToMode", args: { newMode: 2 } },
        effect: { ha: "input_select.select_option", data: { option: "Night" } },
      },
    ],
    errors: [
      {
        label: "ChangeToMode to a mode that does not exist",
        action: { invoke: "ModeSelect", command: "ChangeToMode", args: { newMode: 9 } },
        status: "InvalidCommand",
      },
    ],
  },
  {
    key: "mode_select",
    variant: "select",
    source: { entityId: "select.roborock_s8_mop_intensity" },
    deviceType: 0x0027,
    report: { change: { state: "mild" }, cluster: "ModeSelect", attribute: "CurrentMode", expected: 1 },
    commands: [
      {
        action: { invoke: "ModeSelect", command: "ChangeToMode", args: { newMode: 3 } },
        effect: { ha: "select.select_option", data: { option: "intense" } },
      },
    ],
    errors: [
      {
        label: "ChangeToMode to a mode that does not exist",
        action: { invoke: "ModeSelect", command: "ChangeToMode", args: { newMode: 4 } },
        status: "InvalidCommand",
      },
    ],
  },
];
