/**
 * What a camera endpoint's WebRTC provider hands to the camera's backend (the camera plugin), in plain types: the
 * plugin never sees matter.js. Two kinds of session exist:
 * - {@link CameraSession}: the controller offered (ProvideOffer); the backend answers through Home Assistant.
 * - {@link SolicitedSession}: the controller asked the camera to offer (SolicitOffer); the backend creates the
 *   offer itself and the controller answers it (ProvideAnswer).
 * This file imports nothing: it is the camera's side of the built-in plugin boundary, re-exported to the built-ins by
 * `hub/src/plugins/builtin-services.ts`.
 */

/** One ICE candidate as the Matter struct carries it (JSEP `RTCIceCandidateInit`). */
export interface IceCandidate {
  candidate: string;
  sdpMid: string | null;
  sdpMLineIndex: number | null;
}

/** Why a session ended, as the relay knows it; mapped to Matter's WebRTCEndReasonEnum. */
export type SessionEndReason = "hangup" | "failed" | "unavailable" | "replaced";

/** An ICE server as the controller named it (Matter's ICEServerStruct, without the certificate id). */
export interface IceServerConfig {
  urls: string[];
  username?: string;
  credential?: string;
}

/** A live-view session the controller offered. */
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

/** A live-view session the controller asked the camera to offer. */
export interface SolicitedSession {
  readonly id: number;
  /** Whether the controller asked for video and for audio streams. */
  readonly video: boolean;
  readonly audio: boolean;
  /** The controller's ICE servers (SolicitOffer ICEServers), for the camera's side of this session. */
  readonly iceServers: IceServerConfig[];
  /** "relay" when the controller asked for relayed candidates only. */
  readonly iceTransportPolicy: "all" | "relay";
  /** Sends the backend's SDP offer to the controller (WebRtcTransportRequestor Offer). */
  offer(sdp: string): Promise<void>;
  /** Trickles the backend's ICE candidates to the controller. */
  candidates(candidates: IceCandidate[]): Promise<void>;
  /** Ends the session on the Matter side (the controller gets End) and releases its streams. */
  end(reason: SessionEndReason): Promise<void>;
}

/** What a camera endpoint relays to. The calls must not throw: a failure ends the session through `end`. */
export interface CameraBackend {
  /** A controller offered (or re-offered). */
  open(session: CameraSession): void;
  /** A controller asked for an offer. */
  solicit(session: SolicitedSession): void;
  /** The controller's answer to the offer of a solicited session. */
  answer(sessionId: number, sdp: string): void;
  /** The controller's trickled candidates for an open session. */
  candidates(sessionId: number, candidates: IceCandidate[]): void;
  /** The controller ended the session. */
  close(sessionId: number): void;
}

/** An image from Home Assistant's camera proxy. */
export interface CameraImage {
  data: Uint8Array;
}

/** Where snapshots come from (the camera plugin). */
export type SnapshotSource = (size: { width: number; height: number }) => Promise<CameraImage>;

/** Everything a camera endpoint delegates: the WebRTC relay and the snapshots. */
export interface CameraDeviceBackend extends CameraBackend {
  snapshot: SnapshotSource;
}
