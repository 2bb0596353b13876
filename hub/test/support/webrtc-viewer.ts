import { RTCPeerConnection } from "werift";
import { type IceServer, type PeerCandidate, peerConfig } from "../../src/ha-simulator/camera/camera-peer.ts";

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
 * frontend: it makes the offer, takes an answer and candidates, and records every RTP packet of the video track.
 */
export class WebRtcViewer {
  readonly packets: ReceivedRtp[] = [];
  /** Candidates it found after the offer was made (to trickle). */
  readonly candidates: PeerCandidate[] = [];

  private constructor(private readonly pc: RTCPeerConnection) {
    pc.addTransceiver("video", { direction: "recvonly" });
    pc.onIceCandidate.subscribe((candidate) => {
      if (candidate)
        this.candidates.push({
          candidate: candidate.candidate,
          sdpMid: candidate.sdpMid,
          sdpMLineIndex: candidate.sdpMLineIndex,
        });
    });
    pc.onTrack.subscribe((track) =>
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
      }),
    );
  }

  static async create(iceServers: IceServer[] = []): Promise<WebRtcViewer> {
    return new WebRtcViewer(new RTCPeerConnection(await peerConfig(iceServers)));
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

  get connectionState(): string {
    return this.pc.connectionState;
  }

  async close(): Promise<void> {
    await this.pc.close().catch(() => undefined);
  }
}
