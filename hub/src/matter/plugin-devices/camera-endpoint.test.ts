import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { NodeId } from "@matter/main";
import { Status } from "@matter/main/types";
import { TEST_IMAGE_SIZE, testCameraImage } from "../../../../simulators/home-assistant/camera/test-image.ts";
import { type CameraBridge, rejectsWith, startCameraBridge } from "../../../test/support/camera-bridge.ts";
import { type CameraController, REQUESTOR_ENDPOINT } from "../../../test/support/camera-controller.ts";
import { LIVE_VIEW, LIVE_VIEW_AUDIO, LIVE_VIEW_VIDEO } from "../../../test/support/camera-live.ts";
import { until } from "../../../test/support/matter-fixtures.ts";
import type { BridgeNode } from "../bridge/node.ts";

const CAMERA = 0x0142;
const JPEG = 0;

describe("camera endpoint (WebRTC provider relay, stream management, snapshot)", () => {
  let cam: CameraBridge;
  let bridge: BridgeNode;
  let controller: CameraController;
  let nodeId: NodeId;
  let ep: number;
  let fake: CameraBridge["fake"];
  const offer = (fields: object) => controller.invoke(nodeId, ep, "WebRtcTransportProvider", "provideOffer", fields);

  before(async () => {
    cam = await startCameraBridge("camera-endpoint");
    ({ bridge, controller, nodeId, ep, fake } = cam);
  });
  after(() => cam?.close());

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
    const { videoStreamId } = (await controller.invoke(
      nodeId,
      ep,
      "CameraAvStreamManagement",
      "videoStreamAllocate",
      LIVE_VIEW_VIDEO,
    )) as { videoStreamId: number };
    const { audioStreamId } = (await controller.invoke(
      nodeId,
      ep,
      "CameraAvStreamManagement",
      "audioStreamAllocate",
      LIVE_VIEW_AUDIO,
    )) as { audioStreamId: number };

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
