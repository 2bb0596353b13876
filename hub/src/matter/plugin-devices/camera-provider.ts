/**
 * The WebRTC Transport Provider cluster of a bridged camera (Matter 1.4 §11.5) as a signalling relay: the bridge
 * carries no media. A controller's ProvideOffer opens a session whose offer goes to the camera's backend (Home
 * Assistant's WebRTC signalling, through the camera plugin); the backend's answer and ICE candidates go back to the
 * controller's WebRtcTransportRequestor ({@link RequestorLink}); ProvideICECandidates and EndSession are passed on.
 *
 * Checks follow the specification's effect on receipt: sessions are matched to the accessing fabric and node
 * (NOT_FOUND otherwise), requested streams must be allocated (INVALID_IN_STATE / DYNAMIC_CONSTRAINT_ERROR), and a
 * session holds a reference on its streams until it ends. Limits of a relay: SolicitOffer is refused with
 * UNSUPPORTED_COMMAND because Home Assistant's signalling only answers offers and cannot create one; a re-offer
 * (ProvideOffer for an existing session) starts a fresh Home Assistant session under the same Matter session id.
 */
import { Logger, Node, type ServerNode } from "@matter/main";
import { WebRtcTransportProviderServer } from "@matter/main/behaviors/web-rtc-transport-provider";
import type { WebRtcTransportDefinitions } from "@matter/main/clusters/web-rtc-transport-definitions";
import type { WebRtcTransportProvider } from "@matter/main/clusters/web-rtc-transport-provider";
import { assertRemoteActor, NodeSession } from "@matter/main/protocol";
import { EndpointNumber, FabricIndex, NodeId, Status, StatusResponseError, StreamUsage } from "@matter/main/types";
import { type CameraStreamsServerType, countReferences } from "./camera-streams.ts";
import { enableTcp } from "./camera-tcp.ts";
import { type IceCandidate, RequestorLink, type SessionEndReason } from "./requestor-link.ts";

const logger = Logger.get("CameraProvider");
/** Live sessions one camera keeps; a new one beyond ends the oldest. */
export const MAX_SESSIONS = 4;
type WebRtcSession = WebRtcTransportDefinitions.WebRtcSession;

/** A live-view session as the camera's backend sees it. */
export interface CameraSession {
  readonly id: number;
  /** The controller's SDP offer. */
  readonly offer: string;
  /** Relays the backend's SDP answer to the controller. */
  answer(sdp: string): Promise<void>;
  /** Relays the backend's trickled ICE candidates. */
  candidates(candidates: IceCandidate[]): Promise<void>;
  /** Ends the session on the Matter side (the controller gets End) and releases its streams. */
  end(reason: SessionEndReason): Promise<void>;
}

/** What a camera endpoint relays to; implemented by the camera plugin with plain types. */
export interface CameraBackend {
  /** A controller offered (or re-offered): must not throw; a failure ends the session through `session.end`. */
  open(session: CameraSession): void;
  /** The controller's trickled candidates for an open session. */
  candidates(sessionId: number, candidates: IceCandidate[]): void;
  /** The controller ended the session. */
  close(sessionId: number): void;
}

/** The first id of a stream list (state lists are matter.js managed lists: reading past their end throws). */
function first(list: readonly number[] | undefined): number | null {
  return list !== undefined && list.length > 0 ? (list[0] as number) : null;
}

function refuse(message: string, status: Status): never {
  throw new StatusResponseError(message, status);
}

/** Matter session ids are 0 to 65534; the next free one after the last handed out. */
function allocateSessionId(used: Set<number>, last: number): number {
  for (let step = 1; step <= 65_535; step++) {
    const id = (last + step) % 65_535;
    if (!used.has(id)) return id;
  }
  refuse("all WebRTC session ids are in use", Status.ResourceExhausted);
}

/** The requested stream ids of one kind, by the rules for the list and the deprecated single-id field. */
function resolveStreams(kind: string, list: number[] | undefined, single: number | null | undefined, allocated: number[]) {
  if (list !== undefined) {
    if (allocated.length === 0) refuse(`no ${kind} stream is allocated`, Status.InvalidInState);
    if (new Set(list).size !== list.length) refuse(`${kind} streams repeat an id`, Status.AlreadyExists);
    for (const id of list)
      if (!allocated.includes(id)) refuse(`${kind} stream ${id} is not allocated`, Status.DynamicConstraintError);
    return list;
  }
  if (single === undefined) return undefined;
  if (single === null) {
    if (allocated.length === 0) refuse(`no ${kind} stream is allocated`, Status.InvalidInState);
    return [allocated[0] as number];
  }
  if (!allocated.includes(single)) refuse(`${kind} stream ${single} is not allocated`, Status.DynamicConstraintError);
  return [single];
}

/** The provider server class of one camera, bound to its backend and its stream management server. */
export function cameraProviderServer(backend: CameraBackend, Streams: CameraStreamsServerType) {
  /** Relay state of this camera: behaviors are per-interaction objects, so it lives here, per endpoint type. */
  const links = new Map<number, RequestorLink>();
  let lastId = 65_534;

  const Provider = class CameraProviderServer extends WebRtcTransportProviderServer {
    override async initialize() {
      const node = Node.forEndpoint(this.endpoint) as ServerNode;
      // Matter over TCP is what carries the offers; a camera mounted before the network is up opens it then.
      const open = () => enableTcp(node).catch((error: Error) => logger.error(`camera ${this.endpoint.id}: ${error.message}`));
      if (node.lifecycle.isOnline) await enableTcp(node);
      else this.reactTo(node.lifecycle.online, open, { once: true });
    }

    override solicitOffer(_request: WebRtcTransportProvider.SolicitOfferRequest): never {
      refuse(
        "this camera answers offers only: Home Assistant's WebRTC signalling cannot create an offer (use ProvideOffer)",
        Status.UnsupportedCommand,
      );
    }

    override async provideOffer(request: WebRtcTransportProvider.ProvideOfferRequest) {
      const peer = this.#peer();
      let session: WebRtcSession;
      if (request.webRtcSessionId !== null) {
        session = this.#matching(request.webRtcSessionId);
        backend.close(session.id);
      } else {
        session = this.#newSession(request, peer);
        this.#evictOldest();
        this.state.currentSessions = [...this.state.currentSessions, session];
        this.#reference(session, 1);
      }
      // Plain copies: `session` may be a view into managed state, which a later list change detaches.
      const id = session.id;
      const endpoint = this.endpoint;
      const link =
        links.get(id) ??
        new RequestorLink(
          Node.forEndpoint(endpoint) as ServerNode,
          { fabricIndex: session.fabricIndex, nodeId: session.peerNodeId, endpoint: session.peerEndpointId },
          id,
          (error) => logger.warn(`camera ${endpoint.id} session ${id}: the controller did not accept: ${error.message}`),
        );
      links.set(id, link);
      const relayed: CameraSession = {
        id,
        offer: request.sdp,
        answer: (sdp) => link.answer(sdp),
        candidates: (candidates) => link.candidates(candidates),
        end: (reason) => endSession(endpoint, id, reason),
      };
      // After this handler returned: the answer comes back on a later exchange, once the response is out.
      setImmediate(() => {
        try {
          backend.open(relayed);
        } catch (error) {
          logger.error(`camera ${endpoint.id} session ${id}: ${(error as Error).message}`);
          void relayed.end("failed");
        }
      });
      return {
        webRtcSessionId: id,
        ...(request.videoStreamId !== undefined && { videoStreamId: first(session.videoStreams) }),
        ...(request.audioStreamId !== undefined && { audioStreamId: first(session.audioStreams) }),
      };
    }

    override provideAnswer({ webRtcSessionId }: WebRtcTransportProvider.ProvideAnswerRequest): never {
      this.#matching(webRtcSessionId);
      refuse("this camera sent no offer to answer", Status.InvalidInState);
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
      links.get(webRtcSessionId)?.cancel();
      links.delete(webRtcSessionId);
      backend.close(webRtcSessionId);
    }

    #newSession(request: WebRtcTransportProvider.ProvideOfferRequest, peer: { fabricIndex: number; nodeId: bigint }) {
      const usage = request.streamUsage ?? StreamUsage.LiveView;
      const streams = this.agent.get(Streams).state;
      if (!streams.streamUsagePriorities.includes(usage))
        refuse(`stream usage ${usage} is not offered`, Status.DynamicConstraintError);
      if (request.originatingEndpointId === undefined) refuse("OriginatingEndpointID is required", Status.InvalidCommand);
      if (request.metadataEnabled) refuse("this camera sends no metadata", Status.InvalidCommand);
      const listed = request.videoStreams !== undefined || request.audioStreams !== undefined;
      const single = request.videoStreamId !== undefined || request.audioStreamId !== undefined;
      if (listed && single) refuse("use the stream lists or the single stream ids, not both", Status.InvalidCommand);
      if (!listed && !single) refuse("name the video and/or audio streams", Status.InvalidCommand);
      const videoStreams = resolveStreams(
        "video",
        request.videoStreams,
        request.videoStreamId,
        streams.allocatedVideoStreams.map((s) => s.videoStreamId),
      );
      const audioStreams = resolveStreams(
        "audio",
        request.audioStreams,
        request.audioStreamId,
        streams.allocatedAudioStreams.map((s) => s.audioStreamId),
      );
      const id = allocateSessionId(new Set(this.state.currentSessions.map((s) => s.id)), lastId);
      lastId = id;
      return {
        id,
        peerNodeId: NodeId(peer.nodeId),
        peerEndpointId: EndpointNumber(request.originatingEndpointId),
        streamUsage: usage,
        videoStreamId: videoStreams?.[0] ?? null,
        audioStreamId: audioStreams?.[0] ?? null,
        metadataEnabled: false,
        ...(videoStreams && { videoStreams }),
        ...(audioStreams && { audioStreams }),
        fabricIndex: FabricIndex(peer.fabricIndex),
      };
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
      const link = links.get(id);
      links.delete(id);
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

    #peer(): { fabricIndex: number; nodeId: bigint } {
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
    const link = links.get(id);
    if (!link) return;
    links.delete(id);
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

/** Counts a session's references on its video and audio streams up or down. */
function countSessionStreams(
  streams: InstanceType<CameraStreamsServerType>["state"],
  session: WebRtcSession,
  delta: 1 | -1,
): void {
  const video = [...(session.videoStreams ?? [])];
  const audio = [...(session.audioStreams ?? [])];
  if (video.length)
    streams.allocatedVideoStreams = countReferences(streams.allocatedVideoStreams, video, (s) => s.videoStreamId, delta);
  if (audio.length)
    streams.allocatedAudioStreams = countReferences(streams.allocatedAudioStreams, audio, (s) => s.audioStreamId, delta);
}

type CameraProviderEndpoint = InstanceType<typeof WebRtcTransportProviderServer>["endpoint"];
