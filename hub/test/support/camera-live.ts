/** Small helpers of the camera plugin's end-to-end tests. */
import { connect } from "node:net";
import type { PeerCandidate } from "../../../simulators/home-assistant/camera/camera-peer.ts";
import type { ReceivedRtp } from "./webrtc-viewer.ts";

export const LIVE_VIEW = 3;

/** A VideoStreamAllocate request for H.264 live view, as a phone sends one before asking for WebRTC. */
export const LIVE_VIEW_VIDEO = {
  streamUsage: LIVE_VIEW,
  videoCodec: 0,
  minFrameRate: 5,
  maxFrameRate: 30,
  minResolution: { width: 64, height: 48 },
  maxResolution: { width: 1920, height: 1080 },
  minBitRate: 10_000,
  maxBitRate: 4_000_000,
  keyFrameInterval: 1000,
};

/** An AudioStreamAllocate request for Opus live view (mono, 48 kHz). */
export const LIVE_VIEW_AUDIO = {
  streamUsage: LIVE_VIEW,
  audioCodec: 0,
  channelCount: 1,
  sampleRate: 48_000,
  bitRate: 32_000,
  bitDepth: 16,
};

/** Open UDP sockets of this process: the hub's, the simulator camera's and the viewer's WebRTC peers among them. */
export const udpSockets = () => process.getActiveResourcesInfo().filter((name) => name === "UDPWrap").length;

/** Whether something accepts TCP connections on the port (the bridge's Matter over TCP). */
export function tcpOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "::1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** A viewer's candidates as ProvideICECandidates carries them. */
export function matterCandidates(candidates: readonly PeerCandidate[]) {
  return candidates.map((c) => ({ candidate: c.candidate, sdpMid: c.sdpMid ?? null, sdpmLineIndex: c.sdpMLineIndex ?? null }));
}

/** The H.264 NAL unit types that arrived (a fragment counts as the type it carries): 7 SPS, 8 PPS, 5 IDR slice. */
export function nalTypes(packets: readonly ReceivedRtp[]): Set<number> {
  return new Set(packets.map((p) => p.fragmentType ?? p.nalType));
}
