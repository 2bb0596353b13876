/**
 * The media relay of one solicited session (SolicitOffer: the controller asks the camera to offer). Home
 * Assistant's WebRTC signalling only answers offers, so the hub stands between the two with a WebRTC peer on each
 * side (relay-peer.ts):
 * - upstream, towards HA: it offers HA receive-only media (`camera/webrtc/offer`, HA's ICE servers from
 *   `camera/webrtc/get_client_config`) and applies HA's answer and candidates;
 * - downstream, towards the controller: once HA answered, it offers the controller send-only tracks in the codecs
 *   HA accepted (the packets pass through untranscoded), with the controller's ICE servers, through the Offer
 *   command; the controller's ProvideAnswer and candidates are applied to it.
 * RTP packets of HA's tracks are written to the controller's tracks with the payload type the controller's answer
 * gave the codec. A key frame is asked of HA (PLI) when the controller's side connects and whenever the controller
 * asks for one. Either side failing, HA's error, or {@link CONNECT_TIMEOUT_MS} without both sides connected ends the
 * session on both sides; every path closes both peers (their sockets and timers).
 */

import type { PluginLogger } from "../../api.ts";
import type { CameraHa, IceCandidate, SolicitedSession } from "../../builtin-services.ts";
import { HaWebRtcSession } from "./ha-session.ts";
import { LiveSession } from "./live-session.ts";
import {
  createPeer,
  enlargeReceiveBuffers,
  GATHER_TIMEOUT_MS,
  gatherOffer,
  hasLanAddress,
  iceServersOf,
  loadWerift,
  onKeyframeRequest,
  type Peer,
  toPeerCandidate,
  upstreamCodecs,
  type Werift,
} from "./relay-peer.ts";
import { acceptedCodec, type PayloadTypeMap, rewritePayloadType, type SdpCodec } from "./sdp-media.ts";

/** From SolicitOffer to both sides connected: longer than two gatherings and two answers take on a slow network. */
export const CONNECT_TIMEOUT_MS = 30_000;
/** Key frame requests passed to HA at most this often (a controller losing packets asks many times a second). */
const KEYFRAME_INTERVAL_MS = 500;

type Kind = "audio" | "video";
type Track = InstanceType<Werift["MediaStreamTrack"]>;

export interface MediaRelayOptions {
  /** Per side (default {@link GATHER_TIMEOUT_MS}). */
  gatherTimeoutMs?: number;
  connectTimeoutMs?: number;
}

export class MediaRelay extends LiveSession<SolicitedSession> {
  #up: Peer | undefined;
  #down: Peer | undefined;
  readonly #ha: HaWebRtcSession;
  #haAnswered: ((sdp: string) => void) | undefined;
  /** HA's answer, once applied; HA's candidates wait for it. */
  #haAnswer: string | undefined;
  readonly #haCandidates: IceCandidate[] = [];
  #offerSent = false;
  /** The controller's answer, once applied; its candidates wait for it. */
  #controllerAnswered = false;
  readonly #controllerCandidates: IceCandidate[] = [];
  readonly #tracks = new Map<Kind, Track>();
  readonly #forward = new Map<Kind, PayloadTypeMap>();
  #videoSsrc: number | undefined;
  #lastKeyframeRequest = 0;
  #timer: NodeJS.Timeout | undefined;
  readonly #gatherTimeoutMs: number;

  constructor(
    entityId: string,
    private readonly ha: CameraHa,
    session: SolicitedSession,
    log: PluginLogger,
    onClosed: () => void,
    private readonly options: MediaRelayOptions = {},
  ) {
    super(session, entityId, log, onClosed);
    this.#gatherTimeoutMs = options.gatherTimeoutMs ?? GATHER_TIMEOUT_MS;
    this.#ha = new HaWebRtcSession(ha, entityId, log, {
      answer: (sdp) => this.#haAnswered?.(sdp),
      candidate: (candidate) => this.#fromHa(candidate),
      failed: () => this.end("failed"),
    });
  }

  start(): void {
    this.#timer = setTimeout(() => {
      this.log.warn(`${this.entityId}: live view not connected within ${CONNECT_TIMEOUT_MS / 1000} s, ending it`);
      this.end("failed");
    }, this.options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS);
    this.#run().catch((error: Error) => {
      if (this.closed) return;
      this.log.warn(`${this.entityId}: the live-view relay failed: ${error.message}`);
      this.end("failed");
    });
  }

  /** The controller's answer to our offer. */
  answer(sdp: string): void {
    const down = this.#down;
    if (!down || !this.#offerSent || this.closed) return void this.log.debug(`${this.entityId}: an answer before our offer`);
    down
      .setRemoteDescription({ type: "answer", sdp })
      .then(() => {
        for (const kind of this.#tracks.keys()) {
          const from = acceptedCodec(this.#haAnswer ?? "", kind);
          const to = acceptedCodec(sdp, kind);
          if (from && to) this.#forward.set(kind, { from: from.payloadType, to: to.payloadType });
        }
        this.#controllerAnswered = true;
        this.#toPeer(down, this.#controllerCandidates.splice(0));
      })
      .catch((error: Error) => {
        this.log.warn(`${this.entityId}: the controller's answer is not usable: ${error.message}`);
        this.end("failed");
      });
  }

  /** The controller's trickled candidates. */
  candidates(candidates: IceCandidate[]): void {
    const useful = candidates.filter((c) => c.candidate.trim() !== "");
    if (this.#down && this.#controllerAnswered) this.#toPeer(this.#down, useful);
    else this.#controllerCandidates.push(...useful);
  }

  /** Both peers, HA's session and the connect timer. */
  protected release(): void {
    clearTimeout(this.#timer);
    this.#haAnswered = undefined;
    this.#ha.close();
    void this.#up?.close().catch(() => undefined);
    void this.#down?.close().catch(() => undefined);
  }

  async #run(): Promise<void> {
    const werift = await loadWerift();
    const haIceServers = await this.ha.iceServers(this.entityId).catch((error: Error) => {
      this.log.debug(`${this.entityId}: no ICE servers from Home Assistant: ${error.message}`);
      return [];
    });
    if (this.closed) return;
    const wanted: Kind[] = [...(this.session.video ? ["video" as const] : []), ...(this.session.audio ? ["audio" as const] : [])];
    // HA runs on this host in an add-on install: a loopback candidate is the shortest path to its WebRTC server.
    const up = createPeer(werift, upstreamCodecs(this.session.audio), {
      iceServers: haIceServers,
      loopback: true,
      gatherTimeoutMs: this.#gatherTimeoutMs,
    });
    this.#up = up;
    this.#watch(up, "Home Assistant");
    for (const kind of wanted) up.addTransceiver(kind, { direction: "recvonly" });
    up.onTrack.subscribe((track) => {
      const kind = track.kind as Kind;
      if (kind === "video") this.#videoSsrc = track.ssrc;
      track.onReceiveRtp.subscribe((rtp) => {
        const map = this.#forward.get(kind);
        if (map && rewritePayloadType(rtp.header, map)) this.#tracks.get(kind)?.writeRtp(rtp);
      });
    });
    const answered = new Promise<string>((resolve) => {
      this.#haAnswered = resolve;
    });
    const offer = await gatherOffer(up, this.#gatherTimeoutMs, (late) => this.#ha.candidates([late]));
    if (this.closed) return;
    this.#ha.start(offer);
    const haAnswer = await answered;
    if (this.closed) return;
    await up.setRemoteDescription({ type: "answer", sdp: haAnswer });
    // Closed meanwhile: no controller-side peer may be created after close() ran.
    if (this.closed) return;
    this.#haAnswer = haAnswer;
    this.#toPeer(up, this.#haCandidates.splice(0));

    const codecs = new Map<Kind, SdpCodec>();
    for (const kind of wanted) {
      const codec = acceptedCodec(haAnswer, kind);
      if (codec) codecs.set(kind, codec);
    }
    if (codecs.size === 0) throw new Error(`Home Assistant's answer accepts none of the requested media (${wanted.join(", ")})`);
    await this.#offerController(werift, codecs);
  }

  async #offerController(werift: Werift, codecs: Map<Kind, SdpCodec>): Promise<void> {
    const down = createPeer(
      werift,
      {
        video: codecs.has("video") ? [codecs.get("video") as SdpCodec] : [],
        audio: codecs.has("audio") ? [codecs.get("audio") as SdpCodec] : [],
      },
      {
        iceServers: iceServersOf(this.session.iceServers),
        relayOnly: this.session.iceTransportPolicy === "relay",
        // The controller is another device: loopback only where the host has no other address (an isolated test).
        loopback: !hasLanAddress(),
        gatherTimeoutMs: this.#gatherTimeoutMs,
      },
    );
    this.#down = down;
    this.#watch(down, "the controller");
    for (const kind of codecs.keys()) {
      const track = new werift.MediaStreamTrack({ kind });
      this.#tracks.set(kind, track);
      const transceiver = down.addTransceiver(track, { direction: "sendonly" });
      if (kind === "video") onKeyframeRequest(werift, transceiver, () => this.#requestKeyframe());
    }
    down.connectionStateChange.subscribe((state) => {
      if (state !== "connected") return;
      // The controller's decoder needs a key frame to start: do not make it wait for HA's next one.
      this.#requestKeyframe();
    });
    const offer = await gatherOffer(down, this.#gatherTimeoutMs, (late) => {
      this.session.candidates([late]).catch(() => undefined);
    });
    if (this.closed) return;
    this.#offerSent = true;
    await this.session.offer(offer);
  }

  /** Ends the session when a side fails; asks for a large receive buffer once ICE picked the media socket. */
  #watch(pc: Peer, side: string): void {
    pc.iceConnectionStateChange.subscribe((state) => {
      if (state !== "connected") return;
      const granted = enlargeReceiveBuffers(pc);
      this.log.debug(`${this.entityId}: media socket to ${side}: receive buffer ${granted.join(", ") || "unknown"} bytes`);
    });
    pc.connectionStateChange.subscribe((state) => {
      if (state === "connected" && this.#up?.connectionState === "connected" && this.#down?.connectionState === "connected")
        clearTimeout(this.#timer);
      if (state !== "failed" || this.closed) return;
      this.log.warn(`${this.entityId}: the WebRTC connection to ${side} failed`);
      this.end("failed");
    });
  }

  #requestKeyframe(): void {
    const now = Date.now();
    const ssrc = this.#videoSsrc;
    const receiver = this.#up?.getTransceivers().find((t) => t.kind === "video")?.receiver;
    if (ssrc === undefined || !receiver || now - this.#lastKeyframeRequest < KEYFRAME_INTERVAL_MS) return;
    this.#lastKeyframeRequest = now;
    receiver.sendRtcpPLI(ssrc).catch((error: Error) => this.log.debug(`${this.entityId}: PLI not sent: ${error.message}`));
  }

  #fromHa(candidate: IceCandidate): void {
    if (this.#up && this.#haAnswer !== undefined) this.#toPeer(this.#up, [candidate]);
    else this.#haCandidates.push(candidate);
  }

  #toPeer(pc: Peer, candidates: IceCandidate[]): void {
    for (const candidate of candidates) {
      pc.addIceCandidate(toPeerCandidate(candidate)).catch((error: Error) =>
        this.log.debug(`${this.entityId}: a candidate was not usable: ${error.message}`),
      );
    }
  }
}
