/**
 * One Home Assistant WebRTC session of a camera (`camera/webrtc/offer`): the offer goes out, HA's `session`,
 * `answer`, `candidate` and `error` events come back. Our candidates go to `camera/webrtc/candidate` once HA named
 * its session (earlier ones wait for that; empty end-of-candidates markers are never sent, as HA's own frontend
 * does). Closing unsubscribes, which is how HA's API closes a session.
 */

import type { PluginLogger } from "../../api.ts";
import type { CameraHa, HaIceCandidate, HaWebRtcEvent, IceCandidate } from "../../builtin-services.ts";

/** What HA sends back for a session. */
export interface HaSessionEvents {
  answer(sdp: string): void;
  candidate(candidate: IceCandidate): void;
  /** HA refused the offer or reported an error: the session is over (it is closed already). */
  failed(message: string): void;
}

/** HA's candidate dict, without the fields a Matter candidate leaves null. */
export function toHa({ candidate, sdpMid, sdpMLineIndex }: IceCandidate): HaIceCandidate {
  return { candidate, ...(sdpMid !== null && { sdpMid }), ...(sdpMLineIndex !== null && { sdpMLineIndex }) };
}

export function fromHa({ candidate, sdpMid, sdpMLineIndex }: HaIceCandidate): IceCandidate {
  return { candidate, sdpMid: sdpMid ?? null, sdpMLineIndex: sdpMLineIndex ?? null };
}

export class HaWebRtcSession {
  /** HA's session id, once its `session` event arrived. */
  #haSession: string | undefined;
  /** Our candidates that came before HA's session id. */
  readonly #waiting: IceCandidate[] = [];
  #unsubscribe: (() => Promise<void>) | undefined;
  #closed = false;

  constructor(
    private readonly ha: CameraHa,
    private readonly entityId: string,
    private readonly log: PluginLogger,
    private readonly events: HaSessionEvents,
  ) {}

  /** Sends the offer; never rejects (a refusal reaches `events.failed`). */
  start(offer: string): void {
    this.ha
      .offer(this.entityId, offer, (event) => this.#onEvent(event))
      .then((unsubscribe) => {
        if (this.#closed) void unsubscribe().catch(() => undefined);
        else this.#unsubscribe = unsubscribe;
      })
      .catch((error: Error) => this.#fail(`Home Assistant refused the live-view offer: ${error.message}`));
  }

  candidates(candidates: IceCandidate[]): void {
    const useful = candidates.filter((c) => c.candidate.trim() !== "");
    if (this.#haSession === undefined) this.#waiting.push(...useful);
    else this.#send(this.#haSession, useful);
  }

  close(): void {
    this.#closed = true;
    void this.#unsubscribe?.().catch(() => undefined);
    this.#unsubscribe = undefined;
  }

  #onEvent(event: HaWebRtcEvent): void {
    if (this.#closed) return;
    switch (event.type) {
      case "session":
        this.#haSession = event.session_id;
        this.#send(event.session_id, this.#waiting.splice(0));
        return;
      case "answer":
        this.events.answer(event.answer);
        return;
      case "candidate":
        this.events.candidate(fromHa(event.candidate));
        return;
      case "error":
        this.#fail(`Home Assistant ended the live view: ${event.message} (${event.code})`);
        return;
    }
  }

  #fail(message: string): void {
    if (this.#closed) return;
    this.log.warn(`${this.entityId}: ${message}`);
    this.close();
    this.events.failed(message);
  }

  #send(haSession: string, candidates: IceCandidate[]): void {
    for (const candidate of candidates) {
      this.ha
        .candidate(this.entityId, haSession, toHa(candidate))
        .catch((error: Error) => this.log.debug(`${this.entityId}: HA refused a candidate: ${error.message}`));
    }
  }
}
