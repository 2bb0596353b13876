/**
 * Matrix rows for the built-in plugins' devices (hub-plugins.md "Built-in plugins"): the security plugin mirroring
 * the demo home's alarm panel, the appliance cloud plugin on the simulated VeSync-style account, and the camera
 * plugin on a simulated HA camera. Their commands land on the alarm panel, in the cloud, or in HA's camera image.
 */
import type { Action, CommandCase, DeviceCase, Effect } from "./device-case.ts";
import { onOff } from "./device-case.ts";

/** The demo home's alarm panel, which the security plugin mirrors. */
export const ALARM_PANEL = "alarm_control_panel.home_alarm";

const offWithEffect: Action = { invoke: "OnOff", command: "OffWithEffect", args: { effectIdentifier: 0, effectVariant: 0 } };
const onWithRecallGlobalScene: Action = { invoke: "OnOff", command: "OnWithRecallGlobalScene" };
const onWithTimedOff: Action = {
  invoke: "OnOff",
  command: "OnWithTimedOff",
  args: { onOffControl: 0, onTime: 10, offWaitTime: 0 },
};

/**
 * The six Lighting OnOff commands of a plugin switch. Plugin devices use matter.js's stock servers and the plugin
 * hears attribute changes, so an OffWithEffect on a switch that is off already changes nothing and calls nothing.
 * `settle` waits for the plugin to have caught up with the source before a command whose effect depends on it.
 */
function pluginOnOff(on: Effect, off: Effect, settle?: (mode: "on" | "off") => CommandCase["settle"]): CommandCase[] {
  const nothing: Effect = { none: "the switch is off already: no change for the plugin to act on" };
  const steps: [Action, Effect | Effect[], "on" | "off"][] = [
    [onOff("Off"), off, "on"],
    [onOff("On"), on, "off"],
    [onOff("Toggle"), off, "on"],
    [onWithTimedOff, [on, off], "off"],
    [offWithEffect, nothing, "off"],
    [onWithRecallGlobalScene, on, "off"],
  ];
  return steps.map(([action, effect, before]) => ({ action, effect, ...(settle ? { settle: settle(before) } : {}) }));
}

/** The security plugin's status while it mirrors the panel armed Home (on) or disarmed (off). */
const mirroring = (mode: "on" | "off") => ({
  plugin: "security",
  status: mode === "on" ? "mirroring the panel (Home)" : "mirroring the panel",
});

/** Arguments for the WebRTC session commands, all for a session id no one has. */
const SESSION_ARGS = {
  EndSession: { webRTCSessionID: 99, reason: 0 },
  ProvideAnswer: { webRTCSessionID: 99, sdp: "v=0" },
  ProvideICECandidates: {
    webRTCSessionID: 99,
    ICECandidates: [{ candidate: "candidate:1 1 udp 1 127.0.0.1 40000 typ host", SDPMid: "0", SDPMLineIndex: 0 }],
  },
};

/** Every built-in plugin needs a row (device-cases.test.ts checks against the plugin list). */
export const PLUGIN_CASES: DeviceCase[] = [
  {
    key: "on_off_plugin_unit",
    variant: "security plugin, Home mode switch",
    source: { plugin: "security", device: "mode-home" },
    deviceType: 0x010a,
    report: {
      change: { entityId: ALARM_PANEL, state: "armed_home" },
      cluster: "OnOff",
      attribute: "OnOff",
      expected: true,
    },
    commands: pluginOnOff(
      { ha: "alarm_control_panel.alarm_arm_home", entityId: ALARM_PANEL },
      { ha: "alarm_control_panel.alarm_disarm", entityId: ALARM_PANEL },
      mirroring,
    ),
    errors: [
      {
        label: "MoveToLevel on a switch",
        action: { invoke: "LevelControl", command: "MoveToLevel", args: { level: 100 } },
        status: "UnsupportedCluster",
      },
    ],
  },
  {
    key: "contact_sensor",
    variant: "security plugin, Alarm sensor",
    source: { plugin: "security", device: "alarm" },
    deviceType: 0x0015,
    // A tripped alarm shows as an open contact (no contact: StateValue false).
    report: {
      change: { entityId: ALARM_PANEL, state: "triggered" },
      cluster: "BooleanState",
      attribute: "StateValue",
      expected: false,
    },
    commands: [],
    errors: [
      {
        label: "write to the read-only StateValue",
        action: { write: "BooleanState", attribute: "StateValue", value: true },
        status: "UnsupportedWrite",
      },
    ],
    notes: "read-only",
  },
  {
    key: "on_off_plugin_unit",
    variant: "appliance cloud plugin, smart plug",
    source: { plugin: "appliance-cloud", device: "plug" },
    deviceType: 0x010a,
    report: { change: { cloud: "plug", status: { enabled: true } }, cluster: "OnOff", attribute: "OnOff", expected: true },
    commands: pluginOnOff(
      { cloud: "plug", method: "setSwitch", data: { on: true } },
      { cloud: "plug", method: "setSwitch", data: { on: false } },
    ),
    errors: [
      {
        label: "MoveToLevel on a plug",
        action: { invoke: "LevelControl", command: "MoveToLevel", args: { level: 100 } },
        status: "UnsupportedCluster",
      },
    ],
  },
  {
    key: "air_purifier",
    variant: "appliance cloud plugin, purifier",
    source: { plugin: "appliance-cloud", device: "puri" },
    deviceType: 0x002d,
    report: {
      change: { cloud: "puri", status: { enabled: true, mode: "manual", level: 3 } },
      cluster: "FanControl",
      attribute: "SpeedCurrent",
      expected: 3,
    },
    commands: [
      ...pluginOnOff(
        { cloud: "puri", method: "setSwitch", data: { on: true } },
        { cloud: "puri", method: "setSwitch", data: { on: false } },
      ),
      {
        action: { write: "FanControl", attribute: "SpeedSetting", value: 1 },
        effect: { cloud: "puri", method: "setLevel", data: { level: 1 } },
      },
    ],
    errors: [
      {
        label: "SpeedSetting 4 (above SpeedMax 3)",
        action: { write: "FanControl", attribute: "SpeedSetting", value: 4 },
        status: "ConstraintError",
      },
    ],
  },
  {
    key: "humidity_sensor",
    variant: "appliance cloud plugin, humidifier's sensor",
    source: { plugin: "appliance-cloud", device: "humi-humidity" },
    deviceType: 0x0307,
    report: {
      change: { cloud: "humi", status: { humidity: 52 } },
      cluster: "RelativeHumidityMeasurement",
      attribute: "MeasuredValue",
      expected: 5200,
    },
    commands: [],
    errors: [
      {
        label: "write to the read-only MeasuredValue",
        action: { write: "RelativeHumidityMeasurement", attribute: "MeasuredValue", value: 1 },
        status: "UnsupportedWrite",
      },
    ],
    notes: "read-only",
  },
  {
    key: "camera",
    variant: "camera plugin",
    source: { plugin: "camera", device: "camera.front_door" },
    deviceType: 0x0142,
    commands: [
      {
        action: {
          invoke: "CameraAvStreamManagement",
          command: "SnapshotStreamAllocate",
          args: {
            imageCodec: 0,
            maxFrameRate: 1,
            minResolution: { width: 64, height: 48 },
            maxResolution: { width: 1920, height: 1080 },
            quality: 90,
          },
          large: true,
        },
        response: { snapshotStreamID: 1 },
      },
      {
        // The image is HA's camera proxy picture (the simulator's test JPEG), relayed by the bridge.
        action: {
          invoke: "CameraAvStreamManagement",
          command: "CaptureSnapshot",
          args: { requestedResolution: { width: 640, height: 480 } },
          large: true,
        },
        response: (response) => {
          const data = (response.data as { hex?: string } | undefined)?.hex ?? "";
          if (!data.startsWith("ffd8")) throw new Error(`not a JPEG: ${data.slice(0, 16)}`);
        },
      },
      {
        action: {
          invoke: "CameraAvStreamManagement",
          command: "SnapshotStreamDeallocate",
          args: { snapshotStreamID: 1 },
          large: true,
        },
      },
      {
        action: {
          invoke: "CameraAvStreamManagement",
          command: "AudioStreamAllocate",
          args: { streamUsage: 3, audioCodec: 0, channelCount: 1, sampleRate: 48_000, bitRate: 32_000, bitDepth: 16 },
          large: true,
        },
        response: { audioStreamID: 1 },
      },
      {
        action: { invoke: "CameraAvStreamManagement", command: "AudioStreamDeallocate", args: { audioStreamID: 1 }, large: true },
      },
      {
        // With every stream deallocated, the priorities may change (Live View is the one usage offered).
        action: {
          invoke: "CameraAvStreamManagement",
          command: "SetStreamPriorities",
          args: { streamPriorities: [3] },
          large: true,
        },
      },
    ],
    errors: [
      {
        label: "SnapshotStreamAllocate with an image codec the camera does not offer (only JPEG)",
        action: {
          invoke: "CameraAvStreamManagement",
          command: "SnapshotStreamAllocate",
          args: {
            imageCodec: 1,
            maxFrameRate: 1,
            minResolution: { width: 64, height: 48 },
            maxResolution: { width: 1920, height: 1080 },
            quality: 90,
          },
          large: true,
        },
        status: "DynamicConstraintError",
      },
      {
        label: "CaptureSnapshot of a stream never allocated",
        action: {
          invoke: "CameraAvStreamManagement",
          command: "CaptureSnapshot",
          args: { snapshotStreamID: 99, requestedResolution: { width: 640, height: 480 } },
          large: true,
        },
        status: "NotFound",
      },
      {
        label: "VideoStreamDeallocate of a stream never allocated",
        action: { invoke: "CameraAvStreamManagement", command: "VideoStreamDeallocate", args: { videoStreamID: 7 }, large: true },
        status: "NotFound",
      },
      {
        label: "SetStreamPriorities naming a usage twice",
        action: {
          invoke: "CameraAvStreamManagement",
          command: "SetStreamPriorities",
          args: { streamPriorities: [3, 3] },
          large: true,
        },
        status: "AlreadyExists",
      },
      ...(["EndSession", "ProvideAnswer", "ProvideICECandidates"] as const).map((command) => ({
        label: `${command} for a WebRTC session that does not exist`,
        action: { invoke: "WebRTCTransportProvider", command, args: SESSION_ARGS[command], large: true },
        status: "NotFound",
      })),
    ],
    notDriven: {
      "CameraAvStreamManagement.VideoStreamAllocate":
        "the SDK's provisional (pre-1.5) command has MinKeyFrameInterval/MaxKeyFrameInterval where Matter 1.5 has KeyFrameInterval; the hub cannot decode it",
      "WebRTCTransportProvider.SolicitOffer": "needs a WebRTC requestor on the controller: hub/test/plugins-camera.test.ts",
      "WebRTCTransportProvider.ProvideOffer": "needs a WebRTC requestor on the controller: hub/test/plugins-camera.test.ts",
    },
    notes: "no HA-side state to report; live view (WebRTC) is covered by the camera plugin's own tests",
  },
];
