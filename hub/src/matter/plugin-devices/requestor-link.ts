/**
 * The camera's way back to the controller: the WebRTC provider signals on the controller's own
 * WebRtcTransportRequestor cluster (Matter 1.4 §11.5: Offer, Answer, ICECandidates, End), addressed by the session's
 * peer node and the endpoint the controller named in its ProvideOffer or SolicitOffer. The bridge is a plain device: it addresses the
 * controller through matter.js's PeerSet (which knows the controller's sessions to us) with a bare ClientInteraction,
 * not a ClientNode (`peers.forAddress` would store the controller as a commissioned peer, which the bridge would then
 * start, read and keep in its storage). The commands are large messages, so they ride the controller's TCP session
 * that carried the offer. Without that session the controller is gone: the command fails at once rather than the
 * bridge dialling the controller.
 *
 * Per session the commands go out strictly in order (the Offer or Answer before any candidate). The controller
 * records a session only once our ProvideOffer or SolicitOffer response reached it, so an early command may meet NOT_FOUND: it is retried a
 * few times with growing delays before the session is given up.
 */
import { ChannelType, type ServerNode } from "@matter/main";
import { WebRtcTransportDefinitions } from "@matter/main/clusters/web-rtc-transport-definitions";
import { WebRtcTransportRequestor } from "@matter/main/clusters/web-rtc-transport-requestor";
import { ClientInteraction, Invoke, PeerAddress, PeerSet } from "@matter/main/protocol";
import { EndpointNumber, FabricIndex, NodeId, Status, StatusResponseError } from "@matter/main/types";
import type { IceCandidate, IceServerConfig, SessionEndReason } from "./camera-backend.ts";

const END_REASONS: Record<SessionEndReason, WebRtcTransportDefinitions.WebRtcEndReason> = {
  hangup: WebRtcTransportDefinitions.WebRtcEndReason.UserHangup,
  failed: WebRtcTransportDefinitions.WebRtcEndReason.UnknownReason,
  unavailable: WebRtcTransportDefinitions.WebRtcEndReason.NoUserMedia,
  replaced: WebRtcTransportDefinitions.WebRtcEndReason.Replaced,
};

/** Where a session's requestor lives. */
export interface RequestorAddress {
  fabricIndex: number;
  nodeId: bigint | number;
  endpoint: number;
}

type ExchangeProvider = ConstructorParameters<typeof ClientInteraction>[0]["exchangeProvider"] & object;

/**
 * The peer's exchange provider, restricted to the sessions that exist: an exchange never makes matter.js dial the
 * controller. (Besides the policy, matter.js 0.17 leaves a rejected promise unhandled when a connection attempt it
 * started that way is aborted, e.g. by the bridge stopping.)
 */
function existingSessionsOnly(provider: ExchangeProvider): ExchangeProvider {
  return new Proxy(provider, {
    get(target, property) {
      if (property === "connect") return async () => undefined;
      if (property === "initiateExchange")
        return (options?: Record<string, unknown>) =>
          target.initiateExchange({ ...options, requireExistingSession: true } as never);
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Retry delays for a command the controller does not accept yet (NOT_FOUND: it has not stored the session). */
const NOT_FOUND_RETRIES_MS = [150, 300, 600, 1200];

/**
 * Sends the requestor commands of one session, in order. The returned promises settle when the command was
 * delivered or given up; they never reject: failures go to `onFailure` (the session is lost for the controller
 * then, and the caller has nothing better to do than log it).
 */
export class RequestorLink {
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(
    private readonly node: ServerNode,
    private readonly address: RequestorAddress,
    readonly sessionId: number,
    private readonly onFailure: (error: Error) => void,
  ) {}

  answer(sdp: string): Promise<void> {
    return this.#send("answer", { webRtcSessionId: this.sessionId, sdp });
  }

  /** The camera's own offer for a solicited session; `iceServers` are for the controller's side, if any. */
  offer(sdp: string, iceServers?: IceServerConfig[]): Promise<void> {
    const servers = iceServers?.map(({ urls, username, credential }) => ({
      urLs: urls,
      ...(username !== undefined && { username }),
      ...(credential !== undefined && { credential }),
    }));
    return this.#send("offer", { webRtcSessionId: this.sessionId, sdp, ...(servers?.length && { iceServers: servers }) });
  }

  candidates(candidates: IceCandidate[]): Promise<void> {
    if (candidates.length === 0) return Promise.resolve();
    const iceCandidates = candidates.map(({ candidate, sdpMid, sdpMLineIndex }) => ({
      candidate,
      sdpMid,
      sdpmLineIndex: sdpMLineIndex,
    }));
    return this.#send("iceCandidates", { webRtcSessionId: this.sessionId, iceCandidates });
  }

  /** The controller ended the session itself: whatever is still queued is dropped. */
  cancel(): void {
    this.#closed = true;
  }

  /** The last command of the session; anything queued after it is dropped. */
  end(reason: SessionEndReason): Promise<void> {
    const sent = this.#send("end", { webRtcSessionId: this.sessionId, reason: END_REASONS[reason] });
    this.#closed = true;
    return sent;
  }

  #send(command: "offer" | "answer" | "iceCandidates" | "end", fields: Record<string, unknown>): Promise<void> {
    if (this.#closed) return Promise.resolve();
    const final = command === "end";
    const run = this.#queue
      .then(() => (this.#closed && !final ? undefined : this.#invokeWithRetry(command, fields)))
      .catch((error: Error) => this.onFailure(error));
    this.#queue = run;
    return run;
  }

  async #invokeWithRetry(command: string, fields: Record<string, unknown>): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#invoke(command, fields);
      } catch (error) {
        const notYet = error instanceof StatusResponseError && error.code === Status.NotFound;
        const delay = NOT_FOUND_RETRIES_MS[attempt];
        if (!notYet || delay === undefined) throw error;
        await new Promise((resolve) => setTimeout(resolve, delay));
        if (this.#closed && command !== "end") return;
      }
    }
  }

  async #invoke(command: string, fields: Record<string, unknown>): Promise<void> {
    const peerAddress = PeerAddress({
      fabricIndex: FabricIndex(this.address.fabricIndex),
      nodeId: NodeId(BigInt(this.address.nodeId)),
    });
    const peer = this.node.env.get(PeerSet).get(peerAddress);
    if (!peer?.newestSession(ChannelType.TCP)) throw new Error("the controller has no TCP session with the bridge any more");
    const interaction = new ClientInteraction({
      environment: this.node.env,
      exchangeProvider: existingSessionsOnly(peer.exchangeProvider),
    });
    const request = Invoke({
      commands: [
        Invoke.ConcreteCommandRequest({
          endpoint: EndpointNumber(this.address.endpoint),
          cluster: WebRtcTransportRequestor,
          command,
          fields,
        } as never),
      ],
    });
    try {
      for await (const chunk of interaction.invoke(request)) {
        for (const entry of chunk) {
          if (entry.kind === "cmd-status" && entry.status !== Status.Success) {
            throw StatusResponseError.create(entry.status, undefined, entry.clusterStatus);
          }
        }
      }
    } finally {
      await interaction.close().catch(() => undefined);
    }
  }
}
