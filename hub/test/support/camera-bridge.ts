/**
 * The fixture of the camera endpoint's tests: a bridge node with one camera endpoint over a fake backend (standing in
 * for the camera plugin), commissioned by a {@link CameraController} acting as WebRTC requestor.
 */
import assert from "node:assert/strict";
import type { NodeId } from "@matter/main";
import { Status } from "@matter/main/types";
import { memoryLogger } from "../../../lib/testing/fixtures.ts";
import { assertNetworkIsolated } from "../../../lib/testing/isolation.ts";
import { testCameraImage } from "../../../simulators/home-assistant/camera/test-image.ts";
import { BridgeNode } from "../../src/matter/bridge/node.ts";
import { createMatterEnvironment } from "../../src/matter/matter-environment.ts";
import type { CameraSession, IceCandidate, SolicitedSession } from "../../src/matter/plugin-devices/camera-backend.ts";
import { mountPluginDevice } from "../../src/matter/plugin-devices/plugin-mount.ts";
import { CameraController } from "./camera-controller.ts";
import { freeUdpPort, tempDir } from "./matter-fixtures.ts";

export const CAMERA_ENDPOINT_ID = "p-camera-front";

/** Rejects with exactly this Matter status. */
export function rejectsWith(promise: Promise<unknown>, status: Status) {
  return assert.rejects(promise, (error: { code?: number }) => {
    assert.equal(error.code, status, `status ${Status[status]} expected, got ${String(error)}`);
    return true;
  });
}

/**
 * A backend standing in for Home Assistant and the media relay: answers every offer, offers every solicited session,
 * trickles one candidate, records the rest.
 */
export function fakeBackend() {
  const opened: CameraSession[] = [];
  const solicited: SolicitedSession[] = [];
  const answers: { sessionId: number; sdp: string }[] = [];
  const received: { sessionId: number; candidates: IceCandidate[] }[] = [];
  const closed: number[] = [];
  return {
    opened,
    solicited,
    answers,
    received,
    closed,
    backend: {
      solicit(session: SolicitedSession) {
        solicited.push(session);
        void session
          .offer(`v=0 offer of session ${session.id}`)
          .then(() =>
            session.candidates([{ candidate: "candidate:3 1 udp 3 127.0.0.1 40002 typ host", sdpMid: "0", sdpMLineIndex: 0 }]),
          );
      },
      answer: (sessionId: number, sdp: string) => void answers.push({ sessionId, sdp }),
      open(session: CameraSession) {
        opened.push(session);
        void session
          .answer(`answer to ${session.offer}`)
          .then(() =>
            session.candidates([{ candidate: "candidate:1 1 udp 1 127.0.0.1 40000 typ host", sdpMid: "0", sdpMLineIndex: 0 }]),
          );
      },
      candidates: (sessionId: number, candidates: IceCandidate[]) => void received.push({ sessionId, candidates }),
      close: (sessionId: number) => void closed.push(sessionId),
      snapshot: async () => ({ data: testCameraImage() }),
    },
  };
}

export interface CameraBridge {
  bridge: BridgeNode;
  controller: CameraController;
  nodeId: NodeId;
  /** The camera's endpoint number. */
  ep: number;
  fake: ReturnType<typeof fakeBackend>;
  /** The bridge first: closing it while the controller still answers ends its sessions at once. */
  close(): Promise<void>;
}

export async function startCameraBridge(name: string): Promise<CameraBridge> {
  assertNetworkIsolated();
  const { log } = memoryLogger("info");
  const dir = await tempDir(name);
  const matter = createMatterEnvironment({ storagePath: `${dir.path}/hub`, log, mdnsInterface: "lo" });
  const port = await freeUdpPort();
  const bridge = new BridgeNode({
    id: "cam-bridge",
    name: "Camera bridge",
    port,
    vendorId: 0xfff1,
    productId: 0x8000,
    vendorName: "Matter Hub",
    productName: "Matter Hub Bridge",
    serialNumber: "hub-cam",
    uniqueId: "hub-cam-uid",
    environment: matter,
  });
  let controller: CameraController | undefined;
  const close = async () => {
    await bridge.stop();
    await controller?.close();
    await matter.close();
    await dir.remove();
  };
  try {
    await bridge.start();
    controller = await CameraController.start({
      storagePath: `${dir.path}/ctl`,
      localPort: await freeUdpPort(),
      fabricLabel: "Camera controller",
    });
    const nodeId = await controller.commission(bridge.commissioning()?.manualPairingCode ?? "", { ip: "::1", port });
    const fake = fakeBackend();
    const camera = await mountPluginDevice(bridge, {
      endpointId: CAMERA_ENDPOINT_ID,
      name: "Front door",
      endpointType: { kind: "camera", backend: fake.backend },
      clusters: [],
      uniqueId: "camera-front-door-uid".padEnd(32, "0"),
      vendorName: "camera",
      productName: "Matter Hub camera plugin",
      onWrite: () => undefined,
    });
    return { bridge, controller, nodeId, ep: camera.endpointNumber ?? 0, fake, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}
