/**
 * The WebRTC side of a simulated camera: what Home Assistant's WebRTC provider (go2rtc) is for a real one. It answers
 * the client's offer with a real WebRTC peer (werift), gathers its candidates against the camera's ICE servers (the
 * public-address lookup gives up after 5 s, as WebRTC stacks do), trickles them, and once connected sends the
 * generated H.264 test video (test-video.ts) as RTP, 10 frames a second, until closed. It counts the key frame
 * requests (RTCP PLI) it receives; every frame is a key frame anyway.
 *
 * werift is loaded on the first offer, so a simulator that never streams never loads it.
 */
import { TEST_VIDEO, TEST_VIDEO_FMTP, videoFrame } from "./test-video.ts";

type Werift = typeof import("werift");
let loading: Promise<Werift> | undefined;
function loadWerift(): Promise<Werift> {
  loading ??= import("werift");
  return loading;
}

/** How long the public-address (STUN) lookup of a peer may take, in seconds. */
export const STUN_LOOKUP_SECONDS = 5;

export interface IceServer {
  urls: string | string[];
  username?: string;
  credential?: string;
}

/** A candidate in HA's dict form. */
export interface PeerCandidate {
  candidate: string;
  sdpMid?: string | null;
  sdpMLineIndex?: number | null;
}

/** Options shared by the simulated camera and test viewers: H.264 only, loopback candidates (the test namespace). */
export async function peerConfig(iceServers: IceServer[]) {
  const { RTCRtpCodecParameters } = await loadWerift();
  return {
    codecs: {
      video: [
        new RTCRtpCodecParameters({
          mimeType: "video/H264",
          clockRate: TEST_VIDEO.clockRate,
          rtcpFeedback: [{ type: "nack" }, { type: "nack", parameter: "pli" }],
          parameters: TEST_VIDEO_FMTP,
        }),
      ],
      audio: [],
    },
    iceServers,
    iceStunGatherTimeout: STUN_LOOKUP_SECONDS,
    iceAdditionalHostAddresses: ["127.0.0.1"],
    iceUseIpv6: false,
  };
}

export class CameraPeer {
  #timer: NodeJS.Timeout | undefined;
  #frame = 0;
  #sequence = 0;
  packetsSent = 0;
  keyframeRequests = 0;

  private constructor(
    private readonly pc: InstanceType<Werift["RTCPeerConnection"]>,
    private readonly track: InstanceType<Werift["MediaStreamTrack"]>,
    private readonly werift: Werift,
  ) {
    pc.connectionStateChange.subscribe((state) => {
      if (state === "connected") this.#start();
      if (state === "closed" || state === "failed") this.#stop();
    });
  }

  /** Answers `offer`; candidates found after the answer go to `onCandidate`. Rejects when the offer has no video. */
  static async answer(
    offer: string,
    iceServers: IceServer[],
    onCandidate: (candidate: PeerCandidate) => void,
  ): Promise<{ peer: CameraPeer; answer: string }> {
    const werift = await loadWerift();
    const pc = new werift.RTCPeerConnection(await peerConfig(iceServers));
    try {
      pc.onIceCandidate.subscribe((candidate) => {
        if (candidate)
          onCandidate({ candidate: candidate.candidate, sdpMid: candidate.sdpMid, sdpMLineIndex: candidate.sdpMLineIndex });
      });
      await pc.setRemoteDescription({ type: "offer", sdp: offer });
      const video = pc.getTransceivers().find((transceiver) => transceiver.kind === "video");
      if (!video) throw new Error("the offer asks for no video");
      const track = new werift.MediaStreamTrack({ kind: "video" });
      video.setDirection("sendonly");
      await video.sender.replaceTrack(track);
      await pc.setLocalDescription(await pc.createAnswer());
      const answer = pc.localDescription?.sdp;
      if (!answer) throw new Error("no answer was created");
      const peer = new CameraPeer(pc, track, werift);
      // werift routes a PLI by the requester's own SSRC first, so it may reach the receiver instead of the sender.
      const pli = (packet: unknown) => {
        const feedback = packet instanceof werift.RtcpPayloadSpecificFeedback ? packet.feedback : undefined;
        if (feedback instanceof werift.PictureLossIndication && feedback.mediaSsrc === video.sender.ssrc) peer.keyframeRequests++;
      };
      video.sender.onRtcp.subscribe(pli);
      video.receiver.onRtcp.subscribe(pli);
      return { peer, answer };
    } catch (error) {
      await pc.close().catch(() => undefined);
      throw error;
    }
  }

  async addCandidate(candidate: PeerCandidate): Promise<void> {
    await this.pc.addIceCandidate({
      candidate: candidate.candidate,
      sdpMid: candidate.sdpMid ?? undefined,
      sdpMLineIndex: candidate.sdpMLineIndex ?? undefined,
    });
  }

  async close(): Promise<void> {
    this.#stop();
    await this.pc.close().catch(() => undefined);
  }

  #start(): void {
    if (this.#timer) return;
    const interval = 1000 / TEST_VIDEO.fps;
    this.#timer = setInterval(() => this.#sendFrame(), interval);
    this.#sendFrame();
  }

  #stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #sendFrame(): void {
    const { RtpHeader, RtpPacket } = this.werift;
    const timestamp = (this.#frame * TEST_VIDEO.clockRate) / TEST_VIDEO.fps;
    for (const { payload, marker } of videoFrame(this.#frame)) {
      const header = new RtpHeader({ sequenceNumber: this.#sequence, timestamp: timestamp >>> 0, marker });
      this.#sequence = (this.#sequence + 1) & 0xffff;
      this.track.writeRtp(new RtpPacket(header, Buffer.from(payload)));
      this.packetsSent++;
    }
    this.#frame++;
  }
}
