/**
 * The live-view relay of one camera: every Matter WebRTC session becomes one Home Assistant WebRTC session
 * (`camera/webrtc/offer`), and the two are wired together. HA's answer and candidates go to the controller as they
 * arrive; the controller's candidates go to HA once HA named its session (earlier ones wait for that). HA's
 * `error`, a dropped HA connection or the camera leaving the settings end the Matter session with End; a controller's
 * EndSession unsubscribes, which is how HA's API closes a session. No media passes through the hub.
 */

import type {
  CameraDeviceBackend,
  CameraSession,
  IceCandidate,
  SessionEndReason,
} from "../../../matter/plugin-devices/camera-endpoint.ts";
import type { PluginLogger } from "../../api.ts";
import type { CameraHa, HaIceCandidate, HaWebRtcEvent } from "./camera-ha.ts";

interface Relayed {
  session: CameraSession;
  /** HA's session id, once its `session` event arrived. */
  haSession: string | undefined;
  /** Controller candidates that arrived before HA's session id. */
  waiting: IceCandidate[];
  unsubscribe: (() => Promise<void>) | undefined;
  closed: boolean;
}

/** HA's candidate dict, without the fields a Matter candidate leaves null. */
function toHa({ candidate, sdpMid, sdpMLineIndex }: IceCandidate): HaIceCandidate {
  return { candidate, ...(sdpMid !== null && { sdpMid }), ...(sdpMLineIndex !== null && { sdpMLineIndex }) };
}

function fromHa({ candidate, sdpMid, sdpMLineIndex }: HaIceCandidate): IceCandidate {
  return { candidate, sdpMid: sdpMid ?? null, sdpMLineIndex: sdpMLineIndex ?? null };
}

export class CameraRelay implements CameraDeviceBackend {
  readonly #sessions = new Map<number, Relayed>();
  readonly #offDisconnect: () => void;

  constructor(
    readonly entityId: string,
    private readonly ha: CameraHa,
    private readonly log: PluginLogger,
    private readonly onChange: () => void,
  ) {
    this.#offDisconnect = ha.onDisconnect(() => this.endAll("failed"));
  }

  /** Open live sessions. */
  get sessions(): number {
    return this.#sessions.size;
  }

  open(session: CameraSession): void {
    const previous = this.#sessions.get(session.id);
    if (previous) this.#drop(previous);
    const relayed: Relayed = { session, haSession: undefined, waiting: [], unsubscribe: undefined, closed: false };
    this.#sessions.set(session.id, relayed);
    this.onChange();
    this.ha
      .offer(this.entityId, session.offer, (event) => this.#onEvent(relayed, event))
      .then((unsubscribe) => {
        if (relayed.closed) void unsubscribe().catch(() => undefined);
        else relayed.unsubscribe = unsubscribe;
      })
      .catch((error: Error) => {
        this.log.warn(`${this.entityId}: Home Assistant refused the live-view offer: ${error.message}`);
        this.#end(relayed, "failed");
      });
  }

  candidates(sessionId: number, candidates: IceCandidate[]): void {
    const relayed = this.#sessions.get(sessionId);
    if (!relayed) return;
    // HA's own frontend never sends the empty end-of-candidates marker; neither do we.
    const useful = candidates.filter((c) => c.candidate.trim() !== "");
    if (relayed.haSession === undefined) relayed.waiting.push(...useful);
    else this.#toHa(relayed, useful);
  }

  close(sessionId: number): void {
    const relayed = this.#sessions.get(sessionId);
    if (relayed) this.#drop(relayed);
  }

  snapshot(size: { width: number; height: number }) {
    return this.ha.image(this.entityId, size).then((data) => ({ data }));
  }

  /**
   * Ends every session on both sides (camera removed, plugin stopping, HA connection lost). HA's sessions close at
   * once; the End commands to controllers go out in the background, so an unreachable controller never holds up a
   * lifecycle call of the plugin.
   */
  endAll(reason: SessionEndReason): void {
    for (const relayed of [...this.#sessions.values()]) this.#end(relayed, reason);
  }

  dispose(reason: SessionEndReason): void {
    this.#offDisconnect();
    this.endAll(reason);
  }

  #onEvent(relayed: Relayed, event: HaWebRtcEvent): void {
    if (relayed.closed) return;
    const failed = (error: Error) => this.log.debug(`${this.entityId}: relaying to the controller failed: ${error.message}`);
    switch (event.type) {
      case "session":
        relayed.haSession = event.session_id;
        this.#toHa(relayed, relayed.waiting.splice(0));
        return;
      case "answer":
        void relayed.session.answer(event.answer).catch(failed);
        return;
      case "candidate":
        void relayed.session.candidates([fromHa(event.candidate)]).catch(failed);
        return;
      case "error":
        this.log.warn(`${this.entityId}: Home Assistant ended the live view: ${event.message} (${event.code})`);
        this.#end(relayed, "failed");
        return;
    }
  }

  #toHa(relayed: Relayed, candidates: IceCandidate[]): void {
    const haSession = relayed.haSession;
    if (haSession === undefined) return;
    for (const candidate of candidates) {
      this.ha
        .candidate(this.entityId, haSession, toHa(candidate))
        .catch((error: Error) => this.log.debug(`${this.entityId}: HA refused a candidate: ${error.message}`));
    }
  }

  /** Forgets a session and closes it at HA (the controller already knows: it ended it or re-offered). */
  #drop(relayed: Relayed): void {
    relayed.closed = true;
    if (this.#sessions.get(relayed.session.id) === relayed) this.#sessions.delete(relayed.session.id);
    void relayed.unsubscribe?.().catch(() => undefined);
    relayed.unsubscribe = undefined;
    this.onChange();
  }

  /** Ends a session on both sides. */
  #end(relayed: Relayed, reason: SessionEndReason): void {
    if (relayed.closed) return;
    this.#drop(relayed);
    relayed.session
      .end(reason)
      .catch((error: Error) => this.log.debug(`${this.entityId}: could not tell the controller: ${error.message}`));
  }
}
