/**
 * A Matter Camera (device type 0x0142) for the camera plugin: Camera AV Stream Management (video, audio, snapshot)
 * and the WebRTC Transport Provider relaying to a {@link CameraDeviceBackend}. Built-in plugins ask for it with a
 * plain `{kind: "camera", backend}` (seam.ts {@link BuiltinEndpoint}); plugin-endpoint.ts builds it here, so the
 * plugin never sees matter.js. The first camera mounted on a bridge opens Matter over TCP on the bridge's port
 * (camera-tcp.ts).
 */
import type { MutableEndpoint } from "@matter/main";
import { CameraDevice } from "@matter/main/devices/camera";
import type { CameraDeviceBackend } from "./camera-backend.ts";
import { cameraProviderServer } from "./camera-provider.ts";
import { cameraStreamsServer, cameraStreamsState } from "./camera-streams.ts";

/** The parts of a camera device: its endpoint type and the initial state of its clusters. */
export interface CameraDeviceParts {
  endpointType: MutableEndpoint;
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
