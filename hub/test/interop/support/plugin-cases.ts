/**
 * Matrix rows for the built-in plugins' devices (hub-plugins.md "Built-in plugins"): the security plugin mirroring
 * the demo home's alarm panel and the camera plugin on a simulated HA camera (the appliance cloud plugin's rows are
 * in appliance-cloud-cases.ts). Their commands land on the alarm panel or in HA's camera image.
 */
import type { DeviceCase } from "./device-case.ts";
import { NO_LEVEL, pluginOnOff } from "./plugin-onoff.ts";

/** The demo home's alarm panel, which the security plugin mirrors. */
export const ALARM_PANEL = "alarm_control_panel.home_alarm";
/** The simulated HA camera the camera plugin shows. */
export const CAMERA = "camera.front_door";

const MODE_TITLES = { home: "Home", away: "Away", night: "Night", vacation: "Vacation" } as const;

/**
 * A mode switch of the security plugin mirroring the panel: on arms the panel in that mode, off disarms it, and the
 * panel armed in that mode reports the switch on. The commands wait for the plugin's status line of the mode (or of
 * the disarmed panel) first, as the plugin acts on the panel state it has seen.
 */
function securityMode(mode: keyof typeof MODE_TITLES): DeviceCase {
  const title = MODE_TITLES[mode];
  const mirroring = (before: "on" | "off") => ({
    plugin: "security",
    status: before === "on" ? `mirroring the panel (${title})` : "mirroring the panel",
  });
  return {
    key: "on_off_plugin_unit",
    variant: `security plugin, ${title} mode switch`,
    source: { plugin: "security", device: `mode-${mode}` },
    deviceType: 0x010a,
    report: { change: { entityId: ALARM_PANEL, state: `armed_${mode}` }, cluster: "OnOff", attribute: "OnOff", expected: true },
    commands: pluginOnOff(
      { ha: `alarm_control_panel.alarm_arm_${mode}`, entityId: ALARM_PANEL },
      { ha: "alarm_control_panel.alarm_disarm", entityId: ALARM_PANEL },
      { settle: mirroring },
    ),
    errors: [NO_LEVEL],
  };
}

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
  ...(["home", "away", "night", "vacation"] as const).map(securityMode),
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
    key: "camera",
    variant: "camera plugin",
    source: { plugin: "camera", device: CAMERA },
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
