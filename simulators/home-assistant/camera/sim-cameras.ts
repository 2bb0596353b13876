/**
 * Simulated cameras, after HA's camera component (camera/webrtc.py, camera/__init__.py) with a WebRTC provider:
 * - `camera/webrtc/offer` answers with a subscription: the result, then `session`, `answer` and trickled
 *   `candidate` events from a real WebRTC peer streaming a generated H.264 video (camera-peer.ts), or `error`
 *   (`webrtc_offer_failed`). Unsubscribing closes the session, as HA's `close_webrtc_session` does.
 * - `camera/webrtc/candidate` hands a client candidate to the session (unknown sessions are ignored, like go2rtc).
 * - `camera/webrtc/get_client_config` and `camera/capabilities` describe the camera; a camera without WebRTC is
 *   refused with the codes HA's `require_webrtc_support` sends.
 * - `/api/camera_proxy/<entity_id>` serves the camera's JPEG to the long-lived token or the entity's access token.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "../../../lib/logger.ts";
import type { StateMachine } from "../core/state-machine.ts";
import type { Command, CommandConnection } from "../protocol/commands.ts";
import { HaError, Invalid } from "../protocol/errors.ts";
import { errorMessage, eventMessage, resultMessage } from "../protocol/messages.ts";
import { type Fields, required, v } from "../protocol/schema.ts";
import { CameraPeer, type IceServer, type PeerCandidate } from "./camera-peer.ts";
import { testCameraImage } from "./test-image.ts";

export interface SimCameraOptions {
  friendlyName?: string;
  /** Whether HA offers a WebRTC stream for it (default true); without, offers fail as for an HLS-only camera. */
  webrtc?: boolean;
  /** What `get_client_config` returns and the camera's peer gathers against (default none). */
  iceServers?: IceServer[];
  /** The image the camera proxy serves (default the test JPEG). */
  image?: Uint8Array;
}

/** What a test can observe of a simulated camera. */
export interface SimCameraStats {
  offers: number;
  openSessions: number;
  /** Client candidates HA received for the camera. */
  candidates: number;
  /** RTP packets of the test video sent, over all sessions. */
  packetsSent: number;
  /** Key frame requests (RTCP PLI) the camera's peers received, over all sessions. */
  keyframeRequests: number;
  /** `webrtc_offer_failed` messages sent. */
  errors: string[];
}

interface SimCamera {
  options: SimCameraOptions;
  accessToken: string;
  stats: SimCameraStats;
  sessions: Map<string, CameraPeer | undefined>;
  sentBefore: number;
  keyframesBefore: number;
}

const OFFER_FIELDS: Fields = { entity_id: required(v.entityId()), offer: required(v.string()) };
const CANDIDATE_FIELDS: Fields = {
  entity_id: required(v.entityId()),
  session_id: required(v.string()),
  candidate: required(v.object()),
};

export function createSimCameras(deps: { states: StateMachine; token: () => string; log: Logger | undefined }) {
  const cameras = new Map<string, SimCamera>();

  /** HA's `get_camera_from_entity_id` and `require_webrtc_support`. */
  const webrtcCamera = (conn: CommandConnection, id: number, entityId: string, failCode: string) => {
    const camera = cameras.get(entityId);
    if (!camera || !deps.states.get(entityId)) throw new HaError("home_assistant_error", "Camera not found");
    if (camera.options.webrtc === false) {
      conn.send(errorMessage(id, { code: failCode, message: "Camera does not support WebRTC, frontend_stream_types={'hls'}" }));
      return undefined;
    }
    return camera;
  };

  const commands = new Map<string, Command>();
  commands.set("camera/webrtc/offer", {
    fields: OFFER_FIELDS,
    async handle(conn, msg) {
      const entityId = msg.entity_id as string;
      const camera = webrtcCamera(conn, msg.id, entityId, "webrtc_offer_failed");
      if (!camera) return;
      camera.stats.offers++;
      const sessionId = randomBytes(13).toString("hex").toUpperCase();
      const send = (event: Record<string, unknown>) => conn.send(eventMessage(msg.id, JSON.stringify(event)));
      let closed = false;
      camera.sessions.set(sessionId, undefined);
      camera.stats.openSessions = camera.sessions.size;
      conn.subscriptions.set(msg.id, () => {
        closed = true;
        const peer = camera.sessions.get(sessionId);
        camera.sessions.delete(sessionId);
        camera.stats.openSessions = camera.sessions.size;
        if (peer) {
          camera.sentBefore += peer.packetsSent;
          camera.keyframesBefore += peer.keyframeRequests;
          void peer.close();
        }
      });
      conn.send(resultMessage(msg.id));
      send({ type: "session", session_id: sessionId });
      // Candidates found while answering follow the answer, as go2rtc sends them.
      const early: PeerCandidate[] = [];
      let answered = false;
      const candidate = (found: PeerCandidate) => {
        if (closed) return;
        if (answered) send({ type: "candidate", candidate: found });
        else early.push(found);
      };
      try {
        const { peer, answer } = await CameraPeer.answer(msg.offer as string, camera.options.iceServers ?? [], candidate);
        if (closed) return void (await peer.close());
        camera.sessions.set(sessionId, peer);
        send({ type: "answer", answer });
        answered = true;
        for (const found of early.splice(0)) send({ type: "candidate", candidate: found });
      } catch (error) {
        const message = (error as Error).message;
        deps.log?.warn(`Error handling WebRTC offer: ${message}`);
        camera.stats.errors.push(message);
        if (!closed) send({ type: "error", code: "webrtc_offer_failed", message });
      }
    },
  });
  commands.set("camera/webrtc/candidate", {
    fields: CANDIDATE_FIELDS,
    async handle(conn, msg) {
      const camera = webrtcCamera(conn, msg.id, msg.entity_id as string, "webrtc_candidate_failed");
      if (!camera) return;
      const given = msg.candidate as Record<string, unknown>;
      if (typeof given.candidate !== "string") throw new Invalid("Missing field: candidate", ["candidate"]);
      const peer = camera.sessions.get(msg.session_id as string);
      camera.stats.candidates++;
      if (peer) await peer.addCandidate(given as unknown as PeerCandidate).catch(() => undefined);
      conn.send(resultMessage(msg.id));
    },
  });
  commands.set("camera/webrtc/get_client_config", {
    fields: { entity_id: required(v.entityId()) },
    handle(conn, msg) {
      const camera = webrtcCamera(conn, msg.id, msg.entity_id as string, "webrtc_get_client_config_failed");
      if (camera) conn.send(resultMessage(msg.id, { configuration: { iceServers: camera.options.iceServers ?? [] } }));
    },
  });
  commands.set("camera/capabilities", {
    fields: { entity_id: required(v.entityId()) },
    handle(conn, msg) {
      const camera = cameras.get(msg.entity_id as string);
      if (!camera) throw new HaError("home_assistant_error", "Camera not found");
      const types = camera.options.webrtc === false ? ["hls"] : ["hls", "web_rtc"];
      conn.send(resultMessage(msg.id, { frontend_stream_types: types }));
    },
  });

  /** HA's CameraImageView: the long-lived token or `?token=<access_token>`; 401 otherwise, 404 for no camera. */
  function handleHttp(request: IncomingMessage, response: ServerResponse): boolean {
    const url = new URL(request.url ?? "/", "http://sim");
    const match = /^\/api\/camera_proxy\/([^/]+)$/.exec(url.pathname);
    if (!match) return false;
    const entityId = decodeURIComponent(match[1] as string);
    const camera = cameras.get(entityId);
    const bearer = request.headers.authorization === `Bearer ${deps.token()}`;
    const reply = (status: number, body: Uint8Array | string, type: string) => {
      response.writeHead(status, { "Content-Type": type, "Content-Length": Buffer.byteLength(body), Connection: "close" });
      response.end(body);
    };
    if (!bearer && !(camera && url.searchParams.get("token") === camera.accessToken))
      reply(401, "401: Unauthorized", "text/plain; charset=utf-8");
    else if (!camera) reply(404, "404: Not Found", "text/plain; charset=utf-8");
    else reply(200, camera.options.image ?? testCameraImage(), "image/jpeg");
    return true;
  }

  return {
    commands,
    handleHttp,
    /** Adds (or reconfigures) a camera entity: state `idle` with HA's camera attributes. */
    add(entityId: string, options: SimCameraOptions = {}) {
      const accessToken = randomBytes(32).toString("hex");
      const previous = cameras.get(entityId);
      cameras.set(entityId, {
        options,
        accessToken,
        stats: previous?.stats ?? { offers: 0, openSessions: 0, candidates: 0, packetsSent: 0, keyframeRequests: 0, errors: [] },
        sessions: previous?.sessions ?? new Map(),
        sentBefore: previous?.sentBefore ?? 0,
        keyframesBefore: previous?.keyframesBefore ?? 0,
      });
      deps.states.set(entityId, "idle", {
        access_token: accessToken,
        entity_picture: `/api/camera_proxy/${entityId}?token=${accessToken}`,
        friendly_name: options.friendlyName ?? entityId,
        supported_features: 2,
      });
    },
    stats(entityId: string): SimCameraStats | undefined {
      const camera = cameras.get(entityId);
      if (!camera) return undefined;
      let packets = camera.sentBefore;
      let keyframeRequests = camera.keyframesBefore;
      for (const peer of camera.sessions.values()) {
        packets += peer?.packetsSent ?? 0;
        keyframeRequests += peer?.keyframeRequests ?? 0;
      }
      return { ...camera.stats, errors: [...camera.stats.errors], packetsSent: packets, keyframeRequests };
    },
    async close() {
      for (const camera of cameras.values()) {
        for (const peer of camera.sessions.values()) await peer?.close();
        camera.sessions.clear();
      }
    },
  };
}

export type SimCameras = ReturnType<typeof createSimCameras>;
