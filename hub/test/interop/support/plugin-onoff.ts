/**
 * The OnOff commands of a built-in plugin's switch, as matrix commands (plugin-cases.ts, appliance-cloud-cases.ts).
 */
import type { Action, CommandCase, Effect } from "./device-case.ts";
import { onOff } from "./device-case.ts";

const offWithEffect: Action = { invoke: "OnOff", command: "OffWithEffect", args: { effectIdentifier: 0, effectVariant: 0 } };
const onWithRecallGlobalScene: Action = { invoke: "OnOff", command: "OnWithRecallGlobalScene" };
const onWithTimedOff: Action = {
  invoke: "OnOff",
  command: "OnWithTimedOff",
  args: { onOffControl: 0, onTime: 10, offWaitTime: 0 },
};

export /**
 * The six Lighting OnOff commands of a plugin switch. Plugin devices use matter.js's stock servers and the plugin
 * hears attribute changes, so a command that changes nothing calls nothing: OffWithEffect on a switch that is off,
 * the On of OnWithTimedOff on one that is on. `startsOn`: whether the switch is on when the commands begin (the row's
 * report leaves it so). `settle` waits for the plugin to have caught up with the source before a command whose
 * effect depends on it.
 */
function pluginOnOff(
  on: Effect,
  off: Effect,
  options: { startsOn?: boolean; settle?: (before: "on" | "off") => CommandCase["settle"] } = {},
): CommandCase[] {
  const nothing: Effect = { none: "the switch is off already: no change for the plugin to act on" };
  const steps: [Action, Effect | Effect[], "on" | "off"][] =
    options.startsOn === false
      ? [
          [onOff("On"), on, "off"],
          [onOff("Off"), off, "on"],
          [onOff("Toggle"), on, "off"],
          [offWithEffect, off, "on"],
          [onWithRecallGlobalScene, on, "off"],
          // On already: only the off when OnTime has run out is a change.
          [onWithTimedOff, off, "on"],
        ]
      : [
          [onOff("Off"), off, "on"],
          [onOff("On"), on, "off"],
          [onOff("Toggle"), off, "on"],
          [onWithTimedOff, [on, off], "off"],
          [offWithEffect, nothing, "off"],
          [onWithRecallGlobalScene, on, "off"],
        ];
  const { settle } = options;
  return steps.map(([action, effect, before]) => ({ action, effect, ...(settle ? { settle: settle(before) } : {}) }));
}

/** A level command to a plugin switch, which has no LevelControl: the cluster is not there. */
export const NO_LEVEL = {
  label: "MoveToLevel on a switch",
  action: { invoke: "LevelControl", command: "MoveToLevel", args: { level: 100 } },
  status: "UnsupportedCluster",
} as const;
