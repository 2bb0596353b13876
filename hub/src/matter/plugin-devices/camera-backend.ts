/**
 * What a camera endpoint's WebRTC provider hands to the camera's backend (the camera plugin), in plain types: the
 * plugin never sees matter.js. Two kinds of session exist:
 * - {@link CameraSession}: the controller offered (ProvideOffer); the backend answers through Home Assistant.
 * - {@link SolicitedSession}: the controller asked the camera to offer (SolicitOffer); the backend creates the
 *   offer itself and the controller answers it (ProvideAnswer).
 */
import type { IceCandidate, SessionEndReason } from "./requestor-link.ts";

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
