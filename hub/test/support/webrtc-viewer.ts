import { RTCPeerConnection } from "werift";
import { type IceServer, type PeerCandidate, peerConfig } from "../../../simulators/home-assistant/camera/camera-peer.ts";

/** One RTP packet as the viewer received it. */
export interface ReceivedRtp {
  payloadType: number;
  sequenceNumber: number;
  timestamp: number;
  marker: boolean;
  /** H.264 NAL unit type of the payload (28 = FU-A fragment: the fragment's own type is in `fragmentType`). */
  nalType: number;
  fragmentType: number | undefined;
}

/**
 * A receive-only WebRTC peer (werift) for tests, standing in for the media side of a Matter controller or HA's
 * frontend: it makes the offer and takes an answer ({@link WebRtcViewer.create}), or answers the camera's offer
 * ({@link WebRtcViewer.answering}); it takes candidates and records every RTP packet of the video track.
 */
export class WebRtcViewer {
  readonly packets: ReceivedRtp[] = [];
  /** Candidates it found after the offer was made (to trickle). */
  readonly candidates: PeerCandidate[] = [];
  #videoSsrc: number | undefined;

  private constructor(
    private readonly pc: RTCPeerConnection,
    offering: boolean,
  ) {
    if (offering) pc.addTransceiver("video", { direction: "recvonly" });
    pc.onIceCandidate.subscribe((candidate) => {
      if (candidate)
        this.candidates.push({
          candidate: candidate.candidate,
          sdpMid: candidate.sdpMid,
          sdpMLineIndex: candidate.sdpMLineIndex,
        });
    });
    pc.onTrack.subscribe((track) => {
      if (track.kind === "video") this.#videoSsrc = track.ssrc;
      track.onReceiveRtp.subscribe(({ header, payload }) => {
        const nalType = (payload[0] ?? 0) & 0x1f;
        this.packets.push({
          payloadType: header.payloadType,
          sequenceNumber: header.sequenceNumber,
          timestamp: header.timestamp,
          marker: header.marker,
          nalType,
          fragmentType: nalType === 28 ? (payload[1] ?? 0) & 0x1f : undefined,
        });
      });
    });
  }

  static async create(iceServers: IceServer[] = []): Promise<WebRtcViewer> {
    return new WebRtcViewer(new RTCPeerConnection(await peerConfig(iceServers)), true);
  }

  /** A viewer answering the camera's offer (receive-only); `sdp` is its answer, host candidates included. */
  static async answering(offer: string, iceServers: IceServer[] = []): Promise<{ viewer: WebRtcViewer; sdp: string }> {
    const viewer = new WebRtcViewer(new RTCPeerConnection(await peerConfig(iceServers)), false);
    try {
      await viewer.pc.setRemoteDescription({ type: "offer", sdp: offer });
      for (const transceiver of viewer.pc.getTransceivers()) transceiver.setDirection("recvonly");
      await viewer.pc.setLocalDescription(await viewer.pc.createAnswer());
      const sdp = viewer.pc.localDescription?.sdp;
      if (!sdp) throw new Error("no answer");
      return { viewer, sdp };
    } catch (error) {
      await viewer.close();
      throw error;
    }
  }

  /** Creates the offer (host candidates included, as a gathered offer carries them). */
  async offer(): Promise<string> {
    await this.pc.setLocalDescription(await this.pc.createOffer());
    const sdp = this.pc.localDescription?.sdp;
    if (!sdp) throw new Error("no offer");
    return sdp;
  }

  async answer(sdp: string): Promise<void> {
    await this.pc.setRemoteDescription({ type: "answer", sdp });
  }

  async addCandidate(candidate: PeerCandidate): Promise<void> {
    await this.pc.addIceCandidate({
      candidate: candidate.candidate,
      sdpMid: candidate.sdpMid ?? undefined,
      sdpMLineIndex: candidate.sdpMLineIndex ?? undefined,
    });
  }

  /** Asks the sender for a key frame (RTCP PLI), as a decoder that lost packets does. */
  async requestKeyframe(): Promise<void> {
    const receiver = this.pc.getTransceivers().find((t) => t.kind === "video")?.receiver;
    if (!receiver || this.#videoSsrc === undefined) throw new Error("no video received yet");
    await receiver.sendRtcpPLI(this.#videoSsrc);
  }

  get connectionState(): string {
    return this.pc.connectionState;
  }

  async close(): Promise<void> {
    await this.pc.close().catch(() => undefined);
  }
}
