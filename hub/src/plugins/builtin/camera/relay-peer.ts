/**
 * The WebRTC peers of the media relay (werift, a WebRTC stack in TypeScript: no native code in the add-on image).
 * Loaded on the first solicited session, so a hub whose controllers all offer themselves never loads it.
 *
 * Gathering is time-boxed (docs/plugins.md "Limits": up to 5 s per side for the public-address lookup): werift
 * gathers inside `setLocalDescription`, asking the STUN server of each side for the public address. An offer is
 * sent once gathering completed or {@link GATHER_TIMEOUT_MS} passed, with the candidates found by then; any found
 * later are trickled. The media sockets ask for a 4 MB receive buffer (receive-buffer.ts) once ICE picked them.
 */
import { Socket } from "node:dgram";
import { networkInterfaces } from "node:os";
import type { IceCandidate, IceServerConfig } from "../../builtin-services.ts";
import { requestReceiveBuffer } from "./receive-buffer.ts";
import { type SdpCodec, withCandidates } from "./sdp-media.ts";

export type Werift = typeof import("werift");
export type Peer = InstanceType<Werift["RTCPeerConnection"]>;

/** How long one side's candidate gathering (the public-address lookup) may take before its offer goes out. */
export const GATHER_TIMEOUT_MS = 5_000;

/** H.264 as browsers offer it (Constrained Baseline, Baseline, Main, High; level 3.1; FU-A packetisation). */
const H264_PROFILES = ["42e01f", "42001f", "4d001f", "64001f"];
const OPUS: SdpCodec = { payloadType: 111, mimeType: "audio/opus", clockRate: 48_000, channels: 2 };

/** Node caches the module: every call after the first resolves at once. */
export function loadWerift(): Promise<Werift> {
  return import("werift");
}

/** What Home Assistant is offered: any common H.264 profile it may be streaming, and Opus when audio is wanted. */
export function upstreamCodecs(audio: boolean): { video: SdpCodec[]; audio: SdpCodec[] } {
  return {
    video: H264_PROFILES.map((profile, index) => ({
      payloadType: 102 + index,
      mimeType: "video/H264",
      clockRate: 90_000,
      parameters: `level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=${profile}`,
    })),
    audio: audio ? [OPUS] : [],
  };
}

/** One side of the relay. */
export interface PeerSide {
  iceServers: readonly { urls: string | string[]; username?: string; credential?: string }[];
  relayOnly?: boolean;
  /** Whether to offer a loopback candidate too (the other side may be on this host). */
  loopback: boolean;
  gatherTimeoutMs: number;
}

/** True when this host has an IPv4 address other than loopback (false in an isolated test namespace). */
export function hasLanAddress(): boolean {
  return Object.values(networkInterfaces()).some((addresses) =>
    (addresses ?? []).some((address) => address.family === "IPv4" && !address.internal),
  );
}

export function createPeer(werift: Werift, codecs: { video: SdpCodec[]; audio: SdpCodec[] }, side: PeerSide): Peer {
  const toWerift = (codec: SdpCodec, kind: "audio" | "video") =>
    new werift.RTCRtpCodecParameters({
      payloadType: codec.payloadType,
      mimeType: codec.mimeType,
      clockRate: codec.clockRate,
      ...(codec.channels !== undefined && { channels: codec.channels }),
      ...(codec.parameters !== undefined && { parameters: codec.parameters }),
      // Retransmission requests and picture-loss indications are what keep a relayed picture whole.
      rtcpFeedback: kind === "video" ? [{ type: "nack" }, { type: "nack", parameter: "pli" }] : [],
    });
  return new werift.RTCPeerConnection({
    codecs: {
      video: codecs.video.map((codec) => toWerift(codec, "video")),
      audio: codecs.audio.map((codec) => toWerift(codec, "audio")),
    },
    iceServers: [...side.iceServers],
    iceTransportPolicy: side.relayOnly ? "relay" : "all",
    iceStunGatherTimeout: side.gatherTimeoutMs / 1000,
    ...(side.loopback && { iceAdditionalHostAddresses: ["127.0.0.1"] }),
  });
}

/** The controller's ICE servers in werift's form. */
export function iceServersOf(servers: readonly IceServerConfig[]): PeerSide["iceServers"] {
  return servers.map(({ urls, username, credential }) => ({
    urls: [...urls],
    ...(username !== undefined && { username }),
    ...(credential !== undefined && { credential }),
  }));
}

/**
 * Creates and applies the peer's offer, gathering for at most `timeoutMs`; resolves with the SDP to send. Candidates
 * found after that go to `onLate` (to trickle).
 */
export async function gatherOffer(pc: Peer, timeoutMs: number, onLate: (candidate: IceCandidate) => void): Promise<string> {
  const found: IceCandidate[] = [];
  let sent = false;
  pc.onIceCandidate.subscribe((candidate) => {
    if (!candidate?.candidate) return;
    const plain = {
      candidate: candidate.candidate,
      sdpMid: candidate.sdpMid ?? null,
      sdpMLineIndex: candidate.sdpMLineIndex ?? null,
    };
    if (sent) onLate(plain);
    else found.push(plain);
  });
  const offer = await pc.createOffer();
  let timer: NodeJS.Timeout | undefined;
  const gathered = pc.setLocalDescription(offer).then(() => true as const);
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  let complete: boolean;
  try {
    complete = await Promise.race([gathered, timedOut]);
  } finally {
    clearTimeout(timer);
  }
  // Gathering goes on in the background; a failure there only means fewer candidates.
  if (!complete) gathered.catch(() => undefined);
  sent = true;
  const sdp = pc.localDescription?.sdp;
  if (!sdp) throw new Error("no offer was created");
  // A completed gathering is in the description already; an unfinished one adds what it found so far.
  return complete ? sdp : withCandidates(sdp, found);
}

/**
 * Calls `listener` when the remote side asks this sender for a key frame (RTCP PLI for its SSRC). werift routes a
 * PLI by the requester's own SSRC first, so one from a peer that announced its SSRC reaches the receiver of the
 * transceiver, not the sender: both are watched.
 */
export function onKeyframeRequest(werift: Werift, transceiver: ReturnType<Peer["addTransceiver"]>, listener: () => void): void {
  const check = (packet: unknown) => {
    const feedback = packet instanceof werift.RtcpPayloadSpecificFeedback ? packet.feedback : undefined;
    if (feedback instanceof werift.PictureLossIndication && feedback.mediaSsrc === transceiver.sender.ssrc) listener();
  };
  transceiver.sender.onRtcp.subscribe(check);
  transceiver.receiver.onRtcp.subscribe(check);
}

/** A candidate (Matter's or HA's, null for absent fields) in werift's `addIceCandidate` form. */
export function toPeerCandidate({ candidate, sdpMid, sdpMLineIndex }: IceCandidate) {
  return { candidate, sdpMid: sdpMid ?? undefined, sdpMLineIndex: sdpMLineIndex ?? undefined };
}

/**
 * Asks the sockets ICE picked for media for a 4 MB receive buffer (werift has no option for it, so the relay sets
 * it on the nominated pair's UDP socket, before the DTLS handshake and any RTP). Returns what each was granted.
 */
export function enlargeReceiveBuffers(pc: Peer): number[] {
  const granted: number[] = [];
  for (const transport of pc.iceTransports) {
    const protocol = transport.connection.nominated?.protocol as { transport?: { socket?: unknown } } | undefined;
    const socket = protocol?.transport?.socket;
    if (!(socket instanceof Socket)) continue;
    const size = requestReceiveBuffer(socket);
    if (size !== null) granted.push(size);
  }
  return granted;
}
