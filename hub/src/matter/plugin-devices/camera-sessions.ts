/**
 * The session rules a camera's WebRTC provider shares between ProvideOffer and SolicitOffer (Matter 1.4 §11.5.6):
 * which streams a new session names, which id it gets, and the references it holds on its streams.
 */
import type { WebRtcTransportDefinitions } from "@matter/main/clusters/web-rtc-transport-definitions";
import { EndpointNumber, FabricIndex, NodeId, Status, StatusResponseError, StreamUsage } from "@matter/main/types";
import { type CameraStreamsServerType, countReferences } from "./camera-streams.ts";

export type WebRtcSession = WebRtcTransportDefinitions.WebRtcSession;
type StreamsState = InstanceType<CameraStreamsServerType>["state"];

/** The fields ProvideOffer (without a session id) and SolicitOffer share for opening a session. */
export interface SessionRequest {
  streamUsage?: StreamUsage;
  originatingEndpointId?: number;
  videoStreamId?: number | null;
  audioStreamId?: number | null;
  videoStreams?: number[];
  audioStreams?: number[];
  metadataEnabled?: boolean;
}

/** The accessing controller: its fabric and node. */
export interface SessionPeer {
  fabricIndex: number;
  nodeId: bigint;
}

export function refuse(message: string, status: Status): never {
  throw new StatusResponseError(message, status);
}

/** The first id of a stream list (state lists are matter.js managed lists: reading past their end throws). */
export function first(list: readonly number[] | undefined): number | null {
  return list !== undefined && list.length > 0 ? (list[0] as number) : null;
}

/** Matter session ids are 0 to 65534; the next free one after the last handed out. */
export function allocateSessionId(used: Set<number>, last: number): number {
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

/** A new session entry for `request`, checked against the allocated streams; `id` is the session id to use. */
export function newSession(request: SessionRequest, peer: SessionPeer, streams: StreamsState, id: number): WebRtcSession {
  const usage = request.streamUsage ?? StreamUsage.LiveView;
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

/** The response's deprecated single stream ids, present only when the request used that form (§11.5.6.2). */
export function singleStreamIds(request: SessionRequest, session: WebRtcSession) {
  return {
    ...(request.videoStreamId !== undefined && { videoStreamId: first(session.videoStreams) }),
    ...(request.audioStreamId !== undefined && { audioStreamId: first(session.audioStreams) }),
  };
}

/** Counts a session's references on its video and audio streams up or down. */
export function countSessionStreams(streams: StreamsState, session: WebRtcSession, delta: 1 | -1): void {
  const video = [...(session.videoStreams ?? [])];
  const audio = [...(session.audioStreams ?? [])];
  if (video.length)
    streams.allocatedVideoStreams = countReferences(streams.allocatedVideoStreams, video, (s) => s.videoStreamId, delta);
  if (audio.length)
    streams.allocatedAudioStreams = countReferences(streams.allocatedAudioStreams, audio, (s) => s.audioStreamId, delta);
}
