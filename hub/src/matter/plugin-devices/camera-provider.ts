/**
 * The WebRTC Transport Provider cluster of a bridged camera (Matter 1.4 §11.5). Two ways into a live view:
 * - ProvideOffer (the controller offers): a signalling relay. The offer goes to the camera's backend (Home
 *   Assistant's WebRTC signalling, through the camera plugin); the backend's answer and ICE candidates go back to
 *   the controller's WebRtcTransportRequestor ({@link RequestorLink}); no media passes through the bridge.
 * - SolicitOffer (the controller asks the camera to offer): HA's signalling only answers offers, so the backend
 *   runs a media relay: it offers to HA itself, then offers the controller a stream of its own (Offer command),
 *   takes the controller's ProvideAnswer and candidates, and forwards HA's RTP packets to the controller.
 *
 * Checks follow the specification's effect on receipt: sessions are matched to the accessing fabric and node
 * (NOT_FOUND otherwise), requested streams must be allocated (INVALID_IN_STATE / DYNAMIC_CONSTRAINT_ERROR), and a
 * session holds a reference on its streams until it ends. ProvideAnswer is accepted once, for a session the camera
 * offered (INVALID_IN_STATE otherwise). A re-offer (ProvideOffer for an existing session) starts a fresh Home
 * Assistant session under the same Matter session id, whichever way the session began.
 */
import { Logger, Node, type ServerNode } from "@matter/main";
import { WebRtcTransportProviderServer } from "@matter/main/behaviors/web-rtc-transport-provider";
import type { WebRtcTransportProvider } from "@matter/main/clusters/web-rtc-transport-provider";
import { assertRemoteActor, NodeSession } from "@matter/main/protocol";
import { Status } from "@matter/main/types";
import type { CameraBackend, CameraSession, SessionEndReason, SolicitedSession } from "./camera-backend.ts";
import {
  allocateSessionId,
  countSessionStreams,
  newSession,
  refuse,
  type SessionPeer,
  type SessionRequest,
  singleStreamIds,
  type WebRtcSession,
} from "./camera-sessions.ts";
import type { CameraStreamsServerType } from "./camera-streams.ts";
import { enableTcp } from "./camera-tcp.ts";
import { RequestorLink } from "./requestor-link.ts";

const logger = Logger.get("CameraProvider");
/** Live sessions one camera keeps; a new one beyond ends the oldest. */
export const MAX_SESSIONS = 4;

/** How a session's signalling runs: who offered, and whether the controller answered the camera's offer yet. */
interface Signalling {
  link: RequestorLink;
  offeredBy: "controller" | "camera";
  answered: boolean;
}

/** The provider server class of one camera, bound to its backend and its stream management server. */
export function cameraProviderServer(backend: CameraBackend, Streams: CameraStreamsServerType) {
  /** Relay state of this camera: behaviors are per-interaction objects, so it lives here, per endpoint type. */
  const sessions = new Map<number, Signalling>();
  let lastId = 65_534;

  const Provider = class CameraProviderServer extends WebRtcTransportProviderServer {
    override async initialize() {
      const node = Node.forEndpoint(this.endpoint) as ServerNode;
      // Matter over TCP is what carries the offers; a camera mounted before the network is up opens it then.
      const open = () => enableTcp(node).catch((error: Error) => logger.error(`camera ${this.endpoint.id}: ${error.message}`));
      if (node.lifecycle.isOnline) await enableTcp(node);
      else this.reactTo(node.lifecycle.online, open, { once: true });
    }

    override solicitOffer(request: WebRtcTransportProvider.SolicitOfferRequest) {
      const session = this.#open(request, this.#peer());
      const id = session.id;
      const endpoint = this.endpoint;
      const signalling = this.#signalling(session, "camera");
      const solicited: SolicitedSession = {
        id,
        video: (session.videoStreams?.length ?? 0) > 0,
        audio: (session.audioStreams?.length ?? 0) > 0,
        iceServers: (request.iceServers ?? []).map(({ urLs, username, credential }) => ({
          urls: [...urLs],
          ...(username !== undefined && { username }),
          ...(credential !== undefined && { credential }),
        })),
        iceTransportPolicy: request.iceTransportPolicy === "relay" ? "relay" : "all",
        offer: (sdp) => signalling.link.offer(sdp),
        candidates: (candidates) => signalling.link.candidates(candidates),
        end: (reason) => endSession(endpoint, id, reason),
      };
      this.#afterResponse(id, () => backend.solicit(solicited), solicited.end);
      return { webRtcSessionId: id, deferredOffer: false, ...singleStreamIds(request, session) };
    }

    override async provideOffer(request: WebRtcTransportProvider.ProvideOfferRequest) {
      let session: WebRtcSession;
      if (request.webRtcSessionId !== null) {
        session = this.#matching(request.webRtcSessionId);
        backend.close(session.id);
      } else {
        session = this.#open(request, this.#peer());
      }
      // Plain copies: `session` may be a view into managed state, which a later list change detaches.
      const id = session.id;
      const endpoint = this.endpoint;
      const signalling = this.#signalling(session, "controller");
      const relayed: CameraSession = {
        id,
        offer: request.sdp,
        answer: (sdp) => signalling.link.answer(sdp),
        candidates: (candidates) => signalling.link.candidates(candidates),
        end: (reason) => endSession(endpoint, id, reason),
      };
      this.#afterResponse(id, () => backend.open(relayed), relayed.end);
      return { webRtcSessionId: id, ...singleStreamIds(request, session) };
    }

    override provideAnswer({ webRtcSessionId, sdp }: WebRtcTransportProvider.ProvideAnswerRequest) {
      this.#matching(webRtcSessionId);
      const signalling = sessions.get(webRtcSessionId);
      if (signalling?.offeredBy !== "camera") refuse("this camera sent no offer to answer", Status.InvalidInState);
      if (signalling.answered) refuse("the camera's offer was answered already", Status.InvalidInState);
      signalling.answered = true;
      backend.answer(webRtcSessionId, sdp);
    }

    override provideIceCandidates({ webRtcSessionId, iceCandidates }: WebRtcTransportProvider.ProvideIceCandidatesRequest) {
      for (const { sdpMid } of iceCandidates) if (sdpMid === "") refuse("an empty SDPMid", Status.ConstraintError);
      this.#matching(webRtcSessionId);
      const candidates = iceCandidates.map(({ candidate, sdpMid, sdpmLineIndex }) => ({
        candidate,
        sdpMid,
        sdpMLineIndex: sdpmLineIndex,
      }));
      backend.candidates(webRtcSessionId, candidates);
    }

    override endSession({ webRtcSessionId }: WebRtcTransportProvider.EndSessionRequest) {
      const session = this.#matching(webRtcSessionId);
      // References first: replacing the list detaches `session` (a view into matter.js's managed state).
      this.#reference(session, -1);
      this.state.currentSessions = this.state.currentSessions.filter((s) => s.id !== webRtcSessionId);
      sessions.get(webRtcSessionId)?.link.cancel();
      sessions.delete(webRtcSessionId);
      backend.close(webRtcSessionId);
    }

    /** A new session in CurrentSessions, holding references on its streams (the oldest makes room at the limit). */
    #open(request: SessionRequest, peer: SessionPeer): WebRtcSession {
      const streams = this.agent.get(Streams).state;
      const id = allocateSessionId(new Set(this.state.currentSessions.map((s) => s.id)), lastId);
      const session = newSession(request, peer, streams, id);
      lastId = id;
      this.#evictOldest();
      this.state.currentSessions = [...this.state.currentSessions, session];
      this.#reference(session, 1);
      return session;
    }

    /** The session's way back to the controller (kept across a re-offer), and who offered this time. */
    #signalling(session: WebRtcSession, offeredBy: Signalling["offeredBy"]): Signalling {
      const id = session.id;
      const endpoint = this.endpoint;
      const link =
        sessions.get(id)?.link ??
        new RequestorLink(
          Node.forEndpoint(endpoint) as ServerNode,
          { fabricIndex: session.fabricIndex, nodeId: session.peerNodeId, endpoint: session.peerEndpointId },
          id,
          (error) => logger.warn(`camera ${endpoint.id} session ${id}: the controller did not accept: ${error.message}`),
        );
      const signalling = { link, offeredBy, answered: false };
      sessions.set(id, signalling);
      return signalling;
    }

    /** Starts the backend once this handler returned: what it sends comes back on later exchanges. */
    #afterResponse(id: number, start: () => void, end: (reason: SessionEndReason) => Promise<void>): void {
      const endpoint = this.endpoint;
      setImmediate(() => {
        try {
          start();
        } catch (error) {
          logger.error(`camera ${endpoint.id} session ${id}: ${(error as Error).message}`);
          void end("failed");
        }
      });
    }

    /**
     * A controller that vanished without EndSession leaves its session behind (and HA's, streaming to nobody): at
     * {@link MAX_SESSIONS} the oldest one makes room, ended with End (Replaced) on both sides.
     */
    #evictOldest(): void {
      if (this.state.currentSessions.length < MAX_SESSIONS) return;
      const oldest = this.state.currentSessions[0] as WebRtcSession;
      const id = oldest.id;
      this.#reference(oldest, -1);
      this.state.currentSessions = this.state.currentSessions.filter((s) => s.id !== id);
      const link = sessions.get(id)?.link;
      sessions.delete(id);
      backend.close(id);
      void link?.end("replaced");
    }

    /** The session with this id of the accessing fabric and node, else NOT_FOUND (§11.5.6.5). */
    #matching(id: number): WebRtcSession {
      const peer = this.#peer();
      const session = this.state.currentSessions.find((s) => s.id === id);
      if (!session || session.fabricIndex !== peer.fabricIndex || BigInt(session.peerNodeId) !== peer.nodeId)
        refuse(`WebRTC session ${id} not found`, Status.NotFound);
      return session;
    }

    #peer(): SessionPeer {
      assertRemoteActor(this.context);
      NodeSession.assert(this.context.session);
      const { fabricIndex, nodeId } = this.context.session.peerAddress;
      return { fabricIndex, nodeId: BigInt(nodeId) };
    }

    #reference(session: WebRtcSession, delta: 1 | -1): void {
      countSessionStreams(this.agent.get(Streams).state, session, delta);
    }
  };
  return Provider;

  /** A session the backend ends: drop it from CurrentSessions, release its streams, tell the controller. */
  async function endSession(endpoint: CameraProviderEndpoint, id: number, reason: SessionEndReason): Promise<void> {
    const link = sessions.get(id)?.link;
    if (!link) return;
    sessions.delete(id);
    // Both at once: the state waits for locks, the End for the network; neither may hold up the other.
    const released = Promise.resolve(
      endpoint.act("camera session ended", async (agent) => {
        // Outside a command the locks are taken asynchronously: the offer's own transaction may still hold them.
        const provider = agent.get(Provider);
        const streams = agent.get(Streams);
        const tx = agent.context.transaction;
        await tx.begin();
        await tx.addResources(provider, streams);
        const session = provider.state.currentSessions.find((s) => s.id === id);
        if (!session) return;
        countSessionStreams(streams.state, session, -1);
        provider.state.currentSessions = provider.state.currentSessions.filter((s) => s.id !== id);
      }),
    ).catch((error: Error) => logger.debug(`camera ${endpoint.id}: session ${id} state: ${error.message}`));
    await Promise.all([released, link.end(reason)]);
  }
}

type CameraProviderEndpoint = InstanceType<typeof WebRtcTransportProviderServer>["endpoint"];
