import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { NodeId } from "@matter/main";
import { Status } from "@matter/main/types";
import { memoryLogger } from "../../../../lib/testing/fixtures.ts";
import { assertNetworkIsolated } from "../../../../lib/testing/isolation.ts";
import { CameraController, REQUESTOR_ENDPOINT } from "../../../test/support/camera-controller.ts";
import { freeUdpPort, tempDir, until } from "../../../test/support/matter-fixtures.ts";
import { TEST_IMAGE_SIZE, testCameraImage } from "../../ha-simulator/camera/test-image.ts";
import { BridgeNode } from "../bridge-node.ts";
import { createMatterEnvironment, type MatterEnvironment } from "../matter-environment.ts";
import { type CameraSession, cameraDevice, type IceCandidate } from "./camera-endpoint.ts";
import { mountPluginDevice } from "./plugin-mount.ts";
import type { MountedPluginDevice } from "./seam.ts";

const CAMERA = 0x0142;
const H264 = 0;
const OPUS = 0;
const JPEG = 0;
const LIVE_VIEW = 3;

/** Rejects with exactly this Matter status. */
function rejectsWith(promise: Promise<unknown>, status: Status) {
  return assert.rejects(promise, (error: { code?: number }) => {
    assert.equal(error.code, status, `status ${Status[status]} expected, got ${String(error)}`);
    return true;
  });
}

/** A backend standing in for Home Assistant: answers every offer, trickles one candidate, records the rest. */
function fakeBackend() {
  const opened: CameraSession[] = [];
  const received: { sessionId: number; candidates: IceCandidate[] }[] = [];
  const closed: number[] = [];
  return {
    opened,
    received,
    closed,
    backend: {
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

describe("camera endpoint (WebRTC provider relay, stream management, snapshot)", () => {
  const { log } = memoryLogger("info");
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let matter: MatterEnvironment;
  let bridge: BridgeNode;
  let controller: CameraController;
  let nodeId: NodeId;
  let camera: MountedPluginDevice;
  let ep: number;
  const fake = fakeBackend();
  const offer = (fields: object) => controller.invoke(nodeId, ep, "WebRtcTransportProvider", "provideOffer", fields);

  before(async () => {
    assertNetworkIsolated();
    dir = await tempDir("camera-endpoint");
    matter = createMatterEnvironment({ storagePath: `${dir.path}/hub`, log, mdnsInterface: "lo" });
    const port = await freeUdpPort();
    bridge = new BridgeNode({
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
    await bridge.start();
    controller = await CameraController.start({
      storagePath: `${dir.path}/ctl`,
      localPort: await freeUdpPort(),
      fabricLabel: "Camera controller",
    });
    nodeId = await controller.commission(bridge.commissioning()?.manualPairingCode ?? "", { ip: "::1", port });
    const parts = cameraDevice(fake.backend);
    camera = await mountPluginDevice(bridge, {
      endpointId: "p-camera-front",
      name: "Front door",
      endpointType: parts.endpointType,
      clusters: parts.clusters,
      uniqueId: "camera-front-door-uid".padEnd(32, "0"),
      vendorName: "camera",
      productName: "Matter Hub camera plugin",
      onWrite: () => undefined,
    });
    ep = camera.endpointNumber ?? 0;
  });
  after(async () => {
    // The bridge first: closing it while the controller still answers ends its sessions at once.
    await bridge?.stop();
    await controller?.close();
    await matter?.close();
    await dir?.remove();
  });

  it("is a Matter Camera (0x0142) with stream management, the WebRTC provider and a requestor client", () => {
    const state = bridge.device("p-camera-front")?.state as unknown as {
      descriptor: { deviceTypeList: { deviceType: number }[]; clientList: number[]; serverList: number[] };
    };
    assert.ok(state.descriptor.deviceTypeList.some((t) => t.deviceType === CAMERA));
    assert.ok(state.descriptor.clientList.includes(0x0554), "WebRtcTransportRequestor client");
    assert.ok(state.descriptor.serverList.includes(0x0551), "CameraAvStreamManagement");
    assert.ok(state.descriptor.serverList.includes(0x0553), "WebRtcTransportProvider");
  });

  it("refuses an offer naming no allocated stream, then relays a live-view offer and HA's answer and candidates", async () => {
    await rejectsWith(
      offer({
        webRtcSessionId: null,
        sdp: "v=0 a",
        streamUsage: LIVE_VIEW,
        originatingEndpointId: REQUESTOR_ENDPOINT,
        videoStreamId: null,
      }),
      Status.InvalidInState,
    );
    const { videoStreamId } = (await controller.invoke(nodeId, ep, "CameraAvStreamManagement", "videoStreamAllocate", {
      streamUsage: LIVE_VIEW,
      videoCodec: H264,
      minFrameRate: 15,
      maxFrameRate: 30,
      minResolution: { width: 640, height: 360 },
      maxResolution: { width: 1920, height: 1080 },
      minBitRate: 500_000,
      maxBitRate: 4_000_000,
      keyFrameInterval: 4000,
    })) as { videoStreamId: number };
    const { audioStreamId } = (await controller.invoke(nodeId, ep, "CameraAvStreamManagement", "audioStreamAllocate", {
      streamUsage: LIVE_VIEW,
      audioCodec: OPUS,
      channelCount: 1,
      sampleRate: 48_000,
      bitRate: 32_000,
      bitDepth: 16,
    })) as { audioStreamId: number };

    const sdp = `v=0\r\n${"a=x-padding:0123456789abcdef\r\n".repeat(80)}`; // ~2.5 kB: only TCP carries it
    const response = (await offer({
      webRtcSessionId: null,
      sdp,
      streamUsage: LIVE_VIEW,
      originatingEndpointId: REQUESTOR_ENDPOINT,
      videoStreams: [videoStreamId],
      audioStreams: [audioStreamId],
    })) as { webRtcSessionId: number };
    const id = response.webRtcSessionId;
    await controller.registerSession(nodeId, { id, cameraEndpoint: ep, video: [videoStreamId], audio: [audioStreamId] });
    await until("the answer at the requestor", () => (controller.inbox.get(id)?.answers.length ?? 0) > 0);
    assert.equal(fake.opened[0]?.offer, sdp);
    assert.deepEqual(controller.inbox.get(id)?.answers, [`answer to ${sdp}`]);
    await until("the candidate at the requestor", () => (controller.inbox.get(id)?.candidates.length ?? 0) > 0);
    assert.equal(controller.inbox.get(id)?.candidates[0]?.candidate, "candidate:1 1 udp 1 127.0.0.1 40000 typ host");

    const streams = bridge.device("p-camera-front")?.state as unknown as {
      cameraAvStreamManagement: { allocatedVideoStreams: { referenceCount: number }[] };
      webRtcTransportProvider: { currentSessions: { id: number; peerEndpointId: number }[] };
    };
    assert.equal(streams.cameraAvStreamManagement.allocatedVideoStreams[0]?.referenceCount, 1);
    assert.deepEqual(
      streams.webRtcTransportProvider.currentSessions.map((s) => [s.id, s.peerEndpointId]),
      [[id, REQUESTOR_ENDPOINT]],
    );

    await controller.invoke(nodeId, ep, "WebRtcTransportProvider", "provideIceCandidates", {
      webRtcSessionId: id,
      iceCandidates: [{ candidate: "candidate:2 1 udp 2 ::1 50000 typ host", sdpMid: "0", sdpmLineIndex: 0 }],
    });
    assert.deepEqual(fake.received, [
      { sessionId: id, candidates: [{ candidate: "candidate:2 1 udp 2 ::1 50000 typ host", sdpMid: "0", sdpMLineIndex: 0 }] },
    ]);
    await rejectsWith(
      controller.invoke(nodeId, ep, "WebRtcTransportProvider", "provideIceCandidates", {
        webRtcSessionId: id + 1,
        iceCandidates: [{ candidate: "x", sdpMid: "0", sdpmLineIndex: 0 }],
      }),
      Status.NotFound,
    );
    await rejectsWith(
      controller.invoke(nodeId, ep, "CameraAvStreamManagement", "videoStreamDeallocate", { videoStreamId }),
      Status.InvalidInState,
    );

    await controller.invoke(nodeId, ep, "WebRtcTransportProvider", "endSession", { webRtcSessionId: id, reason: 2 });
    assert.deepEqual(fake.closed, [id]);
    assert.equal(streams.cameraAvStreamManagement.allocatedVideoStreams[0]?.referenceCount, 0);
  });

  it("ends a session from the camera's side with End at the requestor", async () => {
    const response = (await offer({
      webRtcSessionId: null,
      sdp: "v=0 second",
      streamUsage: LIVE_VIEW,
      originatingEndpointId: REQUESTOR_ENDPOINT,
      videoStreamId: null,
    })) as { webRtcSessionId: number; videoStreamId: number | null };
    assert.equal(typeof response.videoStreamId, "number", "the deprecated field is answered when it was asked");
    const id = response.webRtcSessionId;
    await controller.registerSession(nodeId, { id, cameraEndpoint: ep, video: [response.videoStreamId as number] });
    await until("the second answer", () => (controller.inbox.get(id)?.answers.length ?? 0) > 0);
    await fake.opened.at(-1)?.end("unavailable");
    await until("End at the requestor", () => (controller.inbox.get(id)?.ends.length ?? 0) > 0);
    assert.deepEqual(controller.inbox.get(id)?.ends, [5], "NoUserMedia");
    const state = bridge.device("p-camera-front")?.state as unknown as {
      webRtcTransportProvider: { currentSessions: unknown[] };
    };
    assert.deepEqual(state.webRtcTransportProvider.currentSessions, []);
  });

  it("keeps at most four sessions per camera: a fifth ends the oldest with End (Replaced) on both sides", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const { webRtcSessionId: id, videoStreamId } = (await offer({
        webRtcSessionId: null,
        sdp: `v=0 viewer ${i}`,
        streamUsage: LIVE_VIEW,
        originatingEndpointId: REQUESTOR_ENDPOINT,
        videoStreamId: null,
      })) as { webRtcSessionId: number; videoStreamId: number };
      await controller.registerSession(nodeId, { id, cameraEndpoint: ep, video: [videoStreamId] });
      ids.push(id);
    }
    await until("End for the oldest", () => (controller.inbox.get(ids[0] as number)?.ends.length ?? 0) > 0);
    assert.deepEqual(controller.inbox.get(ids[0] as number)?.ends, [4], "Replaced");
    assert.ok(fake.closed.includes(ids[0] as number), "its HA session was closed");
    const state = bridge.device("p-camera-front")?.state as unknown as {
      webRtcTransportProvider: { currentSessions: { id: number }[] };
      cameraAvStreamManagement: { allocatedVideoStreams: { referenceCount: number }[] };
    };
    assert.deepEqual(
      state.webRtcTransportProvider.currentSessions.map((s) => s.id),
      ids.slice(1),
    );
    assert.equal(state.cameraAvStreamManagement.allocatedVideoStreams[0]?.referenceCount, 4);
    for (const id of ids.slice(1))
      await controller.invoke(nodeId, ep, "WebRtcTransportProvider", "endSession", { webRtcSessionId: id, reason: 2 });
    assert.equal(state.cameraAvStreamManagement.allocatedVideoStreams[0]?.referenceCount, 0);
  });

  it("refuses SolicitOffer (HA only answers offers), ProvideAnswer, and metadata", async () => {
    await rejectsWith(
      controller.invoke(nodeId, ep, "WebRtcTransportProvider", "solicitOffer", {
        streamUsage: LIVE_VIEW,
        originatingEndpointId: REQUESTOR_ENDPOINT,
        videoStreamId: null,
      }),
      Status.UnsupportedCommand,
    );
    await rejectsWith(
      controller.invoke(nodeId, ep, "WebRtcTransportProvider", "provideAnswer", { webRtcSessionId: 999, sdp: "v=0" }),
      Status.NotFound,
    );
    await rejectsWith(
      offer({
        webRtcSessionId: null,
        sdp: "v=0",
        originatingEndpointId: REQUESTOR_ENDPOINT,
        videoStreamId: null,
        metadataEnabled: true,
      }),
      Status.InvalidCommand,
    );
  });

  it("returns Home Assistant's JPEG from CaptureSnapshot with its real size", async () => {
    await rejectsWith(
      controller.invoke(nodeId, ep, "CameraAvStreamManagement", "captureSnapshot", {
        snapshotStreamId: null,
        requestedResolution: { width: 640, height: 480 },
      }),
      Status.NotFound,
    );
    await controller.invoke(nodeId, ep, "CameraAvStreamManagement", "snapshotStreamAllocate", {
      imageCodec: JPEG,
      maxFrameRate: 1,
      minResolution: { width: 160, height: 120 },
      maxResolution: { width: 1920, height: 1080 },
      quality: 80,
    });
    const snapshot = (await controller.invoke(nodeId, ep, "CameraAvStreamManagement", "captureSnapshot", {
      snapshotStreamId: null,
      requestedResolution: { width: 640, height: 480 },
    })) as { data: Uint8Array; imageCodec: number; resolution: { width: number; height: number } };
    assert.deepEqual(Buffer.from(snapshot.data), Buffer.from(testCameraImage()));
    assert.equal(snapshot.imageCodec, JPEG);
    assert.deepEqual(snapshot.resolution, TEST_IMAGE_SIZE);
  });
});
