/**
 * A Matter Camera (device type 0x0142) for the camera plugin: Camera AV Stream Management (video, audio, snapshot)
 * and the WebRTC Transport Provider relaying to a {@link CameraDeviceBackend}. Built-in plugins register it through
 * `registerDevice({endpointType, clusters})`; the plugin only sees the plain types exported here, never matter.js.
 * The first camera mounted on a bridge opens Matter over TCP on the bridge's port (camera-tcp.ts).
 */
import { CameraDevice } from "@matter/main/devices/camera";
import type { CameraBackend } from "./camera-backend.ts";
import { cameraProviderServer } from "./camera-provider.ts";
import { cameraStreamsServer, cameraStreamsState, type SnapshotSource } from "./camera-streams.ts";

export type { CameraBackend, CameraSession, IceServerConfig, SolicitedSession } from "./camera-backend.ts";
export type { CameraImage, SnapshotSource } from "./camera-streams.ts";
export { MAX_SNAPSHOT_BYTES } from "./camera-streams.ts";
export type { IceCandidate, SessionEndReason } from "./requestor-link.ts";

/** Everything a camera endpoint delegates: the WebRTC relay and the snapshots. */
export interface CameraDeviceBackend extends CameraBackend {
  snapshot: SnapshotSource;
}

/** The registration parts of a camera device: a live endpoint type and its initial cluster state. */
export interface CameraDeviceParts {
  endpointType: unknown;
  clusters: { clusterId: string; attributes: Record<string, unknown> }[];
}

/** The endpoint type of one camera (its servers are bound to `backend`) and the initial state of its clusters. */
export function cameraDevice(backend: CameraDeviceBackend): CameraDeviceParts {
  const Streams = cameraStreamsServer((size) => backend.snapshot(size));
  const Provider = cameraProviderServer(backend, Streams);
  return {
    endpointType: CameraDevice.with(Streams, Provider),
    clusters: [
      { clusterId: "cameraAvStreamManagement", attributes: cameraStreamsState() },
      { clusterId: "webRtcTransportProvider", attributes: { currentSessions: [] } },
    ],
  };
}
