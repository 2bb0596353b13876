/**
 * Matrix rows for lights and plugs: the four light types, a light shown as a dimmable plug, and the On/Off Plug-in
 * Unit of every on/off domain (switch, input_boolean, siren, remote, script, and the momentary button, input_button,
 * scene and automation), on entities of the simulated demo home plus the siren, remote and input button that
 * device-world.ts adds. Expected values follow hub/src/matter/model/convert/light.ts (level 254 = brightness 255).
 */
import { type Action, type BadArgumentCase, type CommandCase, type DeviceCase, type Effect, onOff } from "./device-case.ts";

/** A level command on a device that has no LevelControl: the cluster is not there. */
const noLevel: BadArgumentCase = {
  label: "MoveToLevel on a device without LevelControl",
  action: { invoke: "LevelControl", command: "MoveToLevel", args: { level: 100 } },
  status: "UnsupportedCluster",
};
const levelOutOfRange: BadArgumentCase = {
  label: "MoveToLevel level 255 (above 254)",
  action: { invoke: "LevelControl", command: "MoveToLevelWithOnOff", args: { level: 255 } },
  status: "ConstraintError",
};

const offWithEffect: Action = { invoke: "OnOff", command: "OffWithEffect", args: { effectIdentifier: 0, effectVariant: 0 } };
const onWithRecallGlobalScene: Action = { invoke: "OnOff", command: "OnWithRecallGlobalScene" };
/** On now, off again when OnTime (tenths of a second) has run out. */
const onWithTimedOff: Action = {
  invoke: "OnOff",
  command: "OnWithTimedOff",
  args: { onOffControl: 0, onTime: 10, offWaitTime: 0 },
};

/**
 * The six commands of an OnOff with the Lighting feature, in an order where each one acts: `on` and `off` are what
 * switching does at the source. OffWithEffect clears GlobalSceneControl, so the OnWithRecallGlobalScene after it is
 * not discarded (Matter 1.4 §1.5.7.5).
 */
export function lightingOnOff(on: Effect, off: Effect, toggled: Effect = off): CommandCase[] {
  return [
    { action: onOff("Off"), effect: off },
    { action: onOff("On"), effect: on },
    { action: onOff("Toggle"), effect: toggled },
    { action: onWithTimedOff, effect: [on, off] },
    { action: offWithEffect, effect: off },
    { action: onWithRecallGlobalScene, effect: on },
  ];
}

/** The same six for a momentary plug (button, scene, automation): every "on" is one press, "off" does nothing. */
function momentaryOnOff(press: Effect): CommandCase[] {
  const nothing: Effect = { none: "a momentary plug has nothing to switch off" };
  return [
    { action: onOff("Toggle"), effect: press },
    { action: onOff("Off"), effect: nothing },
    { action: onOff("On"), effect: press },
    { action: offWithEffect, effect: nothing },
    { action: onWithRecallGlobalScene, effect: press },
    { action: onWithTimedOff, effect: press },
  ];
}

const LIGHT_ON: Effect = { ha: "light.turn_on" };
const LIGHT_OFF: Effect = { ha: "light.turn_off" };

/** LevelControl (OnOff + Lighting features) on a light that is on; it ends off (StepWithOnOff to the minimum). */
const LIGHT_LEVEL: CommandCase[] = [
  {
    action: { invoke: "LevelControl", command: "MoveToLevel", args: { level: 100 } },
    effect: { ha: "light.turn_on", data: { brightness: 100 } },
  },
  {
    action: { invoke: "LevelControl", command: "Move", args: { moveMode: 1, rate: 254 } },
    effect: { ha: "light.turn_on", data: { brightness: 1 } },
  },
  { action: { invoke: "LevelControl", command: "Stop" }, effect: LIGHT_ON },
  {
    action: { invoke: "LevelControl", command: "Step", args: { stepMode: 0, stepSize: 50, transitionTime: 0 } },
    effect: LIGHT_ON,
  },
  {
    action: { invoke: "LevelControl", command: "MoveToLevelWithOnOff", args: { level: 254 } },
    effect: { ha: "light.turn_on", data: { brightness: 255 } },
  },
  {
    action: { invoke: "LevelControl", command: "MoveWithOnOff", args: { moveMode: 0, rate: 254 } },
    effect: { ha: "light.turn_on", data: { brightness: 255 } },
  },
  { action: { invoke: "LevelControl", command: "StopWithOnOff" }, effect: LIGHT_ON },
  {
    action: { invoke: "LevelControl", command: "StepWithOnOff", args: { stepMode: 1, stepSize: 254, transitionTime: 0 } },
    effect: LIGHT_OFF,
  },
];

/** Colour temperature moves on a light that is on (ColorControl MoveMode/StepMode: 1 up, 3 down). */
function colorTemperature(warmestKelvin: number): CommandCase[] {
  return [
    {
      action: {
        invoke: "ColorControl",
        command: "MoveColorTemperature",
        args: { moveMode: 1, rate: 100, colorTemperatureMinimumMireds: 0, colorTemperatureMaximumMireds: 0 },
      },
      effect: { ha: "light.turn_on", data: { color_temp_kelvin: warmestKelvin } },
    },
    { action: { invoke: "ColorControl", command: "StopMoveStep" }, effect: LIGHT_ON },
    {
      action: {
        invoke: "ColorControl",
        command: "StepColorTemperature",
        args: {
          stepMode: 3,
          stepSize: 50,
          transitionTime: 0,
          colorTemperatureMinimumMireds: 0,
          colorTemperatureMaximumMireds: 0,
        },
      },
      effect: LIGHT_ON,
    },
  ];
}

/**
 * A plug for an on/off domain: switching calls `on`/`off`, the HA state `on` reports OnOff true. `toggled` is what
 * the Toggle right after an On calls (a script has finished its run by then and is off again).
 */
function plug(entityId: string, on: string, off: string, toggled = off): DeviceCase {
  return {
    key: "on_off_plugin_unit",
    variant: entityId.split(".")[0] as string,
    source: { entityId },
    deviceType: 0x010a,
    report: { change: { state: "on" }, cluster: "OnOff", attribute: "OnOff", expected: true },
    commands: lightingOnOff({ ha: on }, { ha: off }, { ha: toggled }),
    errors: [noLevel],
  };
}

/** A momentary plug (HA keeps no on/off state): every on is a press of `press`. */
function momentary(entityId: string, press: string): DeviceCase {
  return {
    key: "on_off_plugin_unit",
    variant: entityId.split(".")[0] as string,
    source: { entityId },
    deviceType: 0x010a,
    commands: momentaryOnOff({ ha: press }),
    errors: [noLevel],
    notes: "momentary: HA keeps no on/off state to report; every on is a press",
  };
}

export const LIGHT_PLUG_CASES: DeviceCase[] = [
  {
    key: "on_off_light",
    variant: "light",
    source: { entityId: "light.hallway" },
    deviceType: 0x0100,
    report: { change: { state: "on" }, cluster: "OnOff", attribute: "OnOff", expected: true },
    commands: lightingOnOff(LIGHT_ON, LIGHT_OFF),
    errors: [noLevel],
  },
  {
    key: "dimmable_light",
    variant: "light",
    source: { entityId: "light.dining_pendant" },
    deviceType: 0x0101,
    report: {
      change: { state: "on", attributes: { brightness: 128 } },
      cluster: "LevelControl",
      attribute: "CurrentLevel",
      expected: 127,
    },
    commands: [...LIGHT_LEVEL, ...lightingOnOff(LIGHT_ON, LIGHT_OFF)],
    errors: [levelOutOfRange],
  },
  {
    key: "color_temperature_light",
    variant: "light",
    source: { entityId: "light.floor_lamp" },
    deviceType: 0x010c,
    report: {
      change: { state: "on", attributes: { color_mode: "color_temp", color_temp_kelvin: 4000 } },
      cluster: "ColorControl",
      attribute: "ColorTemperatureMireds",
      expected: 250,
    },
    commands: [
      {
        action: { invoke: "ColorControl", command: "MoveToColorTemperature", args: { colorTemperatureMireds: 370 } },
        effect: { ha: "light.turn_on", data: { color_temp_kelvin: 2703 } },
      },
      // 2202 K is the lamp's warmest (min_color_temp_kelvin).
      ...colorTemperature(2202),
      ...LIGHT_LEVEL,
      ...lightingOnOff(LIGHT_ON, LIGHT_OFF),
    ],
    errors: [
      {
        label: "MoveToHue on a white-only light (no HueSaturation feature)",
        action: { invoke: "ColorControl", command: "MoveToHue", args: { hue: 10 } },
        status: "UnsupportedCommand",
      },
    ],
  },
  {
    key: "extended_color_light",
    variant: "light",
    source: { entityId: "light.living_room_ceiling" },
    deviceType: 0x010d,
    report: {
      change: { state: "on", attributes: { color_mode: "xy", xy_color: [0.5, 0.25] } },
      cluster: "ColorControl",
      attribute: "CurrentX",
      expected: 32768,
    },
    commands: [
      {
        action: { invoke: "ColorControl", command: "MoveToHueAndSaturation", args: { hue: 127, saturation: 254 } },
        effect: { ha: "light.turn_on", data: { hs_color: [180, 100] } },
      },
      { action: { invoke: "ColorControl", command: "MoveToHue", args: { hue: 64, direction: 0 } }, effect: LIGHT_ON },
      { action: { invoke: "ColorControl", command: "StepHue", args: { stepMode: 1, stepSize: 10 } }, effect: LIGHT_ON },
      { action: { invoke: "ColorControl", command: "MoveToSaturation", args: { saturation: 127 } }, effect: LIGHT_ON },
      { action: { invoke: "ColorControl", command: "StepSaturation", args: { stepMode: 1, stepSize: 10 } }, effect: LIGHT_ON },
      {
        action: { invoke: "ColorControl", command: "MoveToColor", args: { colorX: 32768, colorY: 16384 } },
        effect: { ha: "light.turn_on", data: { xy_color: [0.5, 0.25] } },
      },
      { action: { invoke: "ColorControl", command: "StepColor", args: { stepX: 100, stepY: -100 } }, effect: LIGHT_ON },
      {
        action: { invoke: "ColorControl", command: "MoveToColorTemperature", args: { colorTemperatureMireds: 250 } },
        effect: { ha: "light.turn_on", data: { color_temp_kelvin: 4000 } },
      },
      ...colorTemperature(2000),
      ...LIGHT_LEVEL,
      ...lightingOnOff(LIGHT_ON, LIGHT_OFF),
    ],
    errors: [
      {
        label: "MoveToHue hue 255 (above 254)",
        action: { invoke: "ColorControl", command: "MoveToHue", args: { hue: 255 } },
        status: "ConstraintError",
      },
      {
        label: "MoveHue (continuous, no HA equivalent)",
        action: { invoke: "ColorControl", command: "MoveHue", args: { moveMode: 1, rate: 10 } },
        status: "UnsupportedCommand",
      },
      {
        label: "MoveSaturation (continuous, no HA equivalent)",
        action: { invoke: "ColorControl", command: "MoveSaturation", args: { moveMode: 1, rate: 10 } },
        status: "UnsupportedCommand",
      },
      {
        label: "MoveColor (continuous, no HA equivalent)",
        action: { invoke: "ColorControl", command: "MoveColor", args: { rateX: 10, rateY: 10 } },
        status: "UnsupportedCommand",
      },
    ],
  },
  {
    key: "dimmable_plug_in_unit",
    variant: "light shown as plug",
    source: { entityId: "light.kids_night_light", override: "dimmable_plug_in_unit" },
    deviceType: 0x010b,
    report: {
      change: { state: "on", attributes: { brightness: 255 } },
      cluster: "LevelControl",
      attribute: "CurrentLevel",
      expected: 254,
    },
    commands: [
      {
        action: { invoke: "LevelControl", command: "MoveToLevelWithOnOff", args: { level: 127 } },
        effect: { ha: "light.turn_on", data: { brightness: 128 } },
      },
      ...LIGHT_LEVEL,
      ...lightingOnOff(LIGHT_ON, LIGHT_OFF),
    ],
    errors: [levelOutOfRange],
  },
  plug("switch.garden_pump", "switch.turn_on", "switch.turn_off"),
  plug("input_boolean.guest_mode", "input_boolean.turn_on", "input_boolean.turn_off"),
  plug("siren.hall_siren", "siren.turn_on", "siren.turn_off"),
  plug("remote.living_room_tv", "remote.turn_on", "remote.turn_off"),
  plug("script.goodnight", "script.turn_on", "script.turn_off", "script.turn_on"),
  momentary("button.restart_router", "button.press"),
  momentary("input_button.ring_test", "input_button.press"),
  momentary("scene.movie_night", "scene.turn_on"),
  momentary("automation.vacation_lights", "automation.trigger"),
];
