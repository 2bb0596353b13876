/**
 * The live-view relay of one camera. Every Matter WebRTC session becomes one Home Assistant WebRTC session
 * (`camera/webrtc/offer`, ha-session.ts), wired up by who offered:
 * - the controller (ProvideOffer): its offer goes to HA as is; HA's answer and candidates go to the controller as
 *   they arrive, the controller's candidates to HA. No media passes through the hub.
 * - the camera (SolicitOffer): a {@link MediaRelay} offers to HA and to the controller and forwards the packets.
 * HA's `error`, a dropped HA connection or the camera leaving the settings end the Matter session with End; a
 * controller's EndSession closes HA's session.
 */

import type { PluginLogger } from "../../api.ts";
import type {
  CameraDeviceBackend,
  CameraHa,
  CameraSession,
  IceCandidate,
  SessionEndReason,
  SolicitedSession,
} from "../../builtin-services.ts";
import { HaWebRtcSession } from "./ha-session.ts";
import { LiveSession } from "./live-session.ts";
import { MediaRelay, type MediaRelayOptions } from "./media-relay.ts";

/** A session the controller offered: signalling only. */
class SignallingRelay extends LiveSession<CameraSession> {
  readonly #ha: HaWebRtcSession;

  constructor(session: CameraSession, ha: CameraHa, entityId: string, log: PluginLogger, onClosed: () => void) {
    super(session, entityId, log, onClosed);
    const failed = (error: Error) => log.debug(`${entityId}: relaying to the controller failed: ${error.message}`);
    this.#ha = new HaWebRtcSession(ha, entityId, log, {
      answer: (sdp) => void session.answer(sdp).catch(failed),
      candidate: (candidate) => void session.candidates([candidate]).catch(failed),
      failed: () => this.end("failed"),
    });
  }

  start(): void {
    this.#ha.start(this.session.offer);
  }

  candidates(candidates: IceCandidate[]): void {
    this.#ha.candidates(candidates);
  }

  answer(): void {}

  protected release(): void {
    this.#ha.close();
  }
}

export class CameraRelay implements CameraDeviceBackend {
  readonly #sessions = new Map<number, LiveSession>();
  readonly #offDisconnect: () => void;

  constructor(
    readonly entityId: string,
    private readonly ha: CameraHa,
    private readonly log: PluginLogger,
    private readonly onChange: () => void,
    private readonly mediaOptions: MediaRelayOptions = {},
  ) {
    this.#offDisconnect = ha.onDisconnect(() => this.endAll("failed"));
  }

  /** Open live sessions. */
  get sessions(): number {
    return this.#sessions.size;
  }

  open(session: CameraSession): void {
    const relay = new SignallingRelay(session, this.ha, this.entityId, this.log, () => this.#forget(relay));
    this.#add(relay);
    relay.start();
  }

  solicit(session: SolicitedSession): void {
    const relay = new MediaRelay(this.entityId, this.ha, session, this.log, () => this.#forget(relay), this.mediaOptions);
    this.#add(relay);
    relay.start();
  }

  answer(sessionId: number, sdp: string): void {
    this.#sessions.get(sessionId)?.answer(sdp);
  }

  candidates(sessionId: number, candidates: IceCandidate[]): void {
    this.#sessions.get(sessionId)?.candidates(candidates);
  }

  close(sessionId: number): void {
    this.#sessions.get(sessionId)?.close();
  }

  snapshot(size: { width: number; height: number }) {
    return this.ha.image(this.entityId, size).then((data) => ({ data }));
  }

  /**
   * Ends every session on both sides (camera removed, plugin stopping, HA connection lost). HA's sessions and the
   * relays' peers close at once; the End commands to controllers go out in the background, so an unreachable
   * controller never holds up a lifecycle call of the plugin.
   */
  endAll(reason: SessionEndReason): void {
    for (const live of [...this.#sessions.values()]) live.end(reason);
  }

  dispose(reason: SessionEndReason): void {
    this.#offDisconnect();
    this.endAll(reason);
  }

  /** A session under an id still open (a re-offer) replaces it: the old one closes at HA first. */
  #add(live: LiveSession): void {
    this.#sessions.get(live.id)?.close();
    this.#sessions.set(live.id, live);
    this.onChange();
  }

  #forget(live: LiveSession): void {
    if (this.#sessions.get(live.id) === live) this.#sessions.delete(live.id);
    this.onChange();
  }
}
