import type { PluginLogger } from "../../api.ts";
import type { IceCandidate, SessionEndReason } from "../../builtin-services.ts";

/** The Matter side of a live session, as both kinds (offered and solicited) hold it. */
export interface MatterSession {
  readonly id: number;
  end(reason: SessionEndReason): Promise<void>;
}

/**
 * What the two kinds of live session share (signalling relay for ProvideOffer, media relay for SolicitOffer): a
 * session closes once, releasing what it holds at HA and in the hub, and ending it also tells the controller.
 */
export abstract class LiveSession<S extends MatterSession = MatterSession> {
  #closed = false;

  constructor(
    protected readonly session: S,
    protected readonly entityId: string,
    protected readonly log: PluginLogger,
    private readonly onClosed: () => void,
  ) {}

  get id(): number {
    return this.session.id;
  }

  protected get closed(): boolean {
    return this.#closed;
  }

  abstract candidates(candidates: IceCandidate[]): void;
  /** The controller's answer (solicited sessions only). */
  abstract answer(sdp: string): void;
  /** Releases HA's session and whatever else the session holds; runs once. */
  protected abstract release(): void;

  /** Closes the session at HA (and in the hub) without telling the controller (it ended it or re-offered). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.release();
    this.onClosed();
  }

  /** Ends the session on both sides: HA's closes, the controller gets End. */
  end(reason: SessionEndReason): void {
    if (this.#closed) return;
    this.close();
    this.session
      .end(reason)
      .catch((error: Error) => this.log.debug(`${this.entityId}: could not tell the controller: ${error.message}`));
  }
}
