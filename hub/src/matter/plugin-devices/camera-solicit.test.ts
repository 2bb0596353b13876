import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { NodeId } from "@matter/main";
import { Status } from "@matter/main/types";
import { CAMERA_ENDPOINT_ID, type CameraBridge, rejectsWith, startCameraBridge } from "../../../test/support/camera-bridge.ts";
import { type CameraController, REQUESTOR_ENDPOINT } from "../../../test/support/camera-controller.ts";
import { LIVE_VIEW, LIVE_VIEW_AUDIO, LIVE_VIEW_VIDEO } from "../../../test/support/camera-live.ts";
import { until } from "../../../test/support/matter-fixtures.ts";
import type { BridgeNode } from "../bridge/node.ts";

describe("camera endpoint: sessions the controller asks the camera to offer (SolicitOffer)", () => {
  let cam: CameraBridge;
  let bridge: BridgeNode;
  let controller: CameraController;
  let nodeId: NodeId;
  let ep: number;
  let fake: CameraBridge["fake"];
  let videoStreamId: number;
  const offer = (fields: object) => controller.invoke(nodeId, ep, "WebRtcTransportProvider", "provideOffer", fields);

  before(async () => {
    cam = await startCameraBridge("camera-solicit");
    ({ bridge, controller, nodeId, ep, fake } = cam);
    ({ videoStreamId } = (await controller.invoke(
      nodeId,
      ep,
      "CameraAvStreamManagement",
      "videoStreamAllocate",
      LIVE_VIEW_VIDEO,
    )) as { videoStreamId: number });
    await controller.invoke(nodeId, ep, "CameraAvStreamManagement", "audioStreamAllocate", LIVE_VIEW_AUDIO);
  });
  after(() => cam?.close());

  it("takes SolicitOffer: the camera's offer reaches the requestor, ProvideAnswer is accepted once", async () => {
    const streams = bridge.device(CAMERA_ENDPOINT_ID)?.state as unknown as {
      cameraAvStreamManagement: { allocatedVideoStreams: { videoStreamId: number; referenceCount: number }[] };
      webRtcTransportProvider: { currentSessions: { id: number }[] };
    };
    const response = (await controller.invoke(nodeId, ep, "WebRtcTransportProvider", "solicitOffer", {
      streamUsage: LIVE_VIEW,
      originatingEndpointId: REQUESTOR_ENDPOINT,
      videoStreamId: null,
      iceServers: [{ urLs: ["stun:stun.example.net:3478"] }, { urLs: ["turn:turn.example.net"], username: "u", credential: "c" }],
      iceTransportPolicy: "relay",
    })) as { webRtcSessionId: number; deferredOffer: boolean; videoStreamId: number | null; audioStreamId?: number };
    const id = response.webRtcSessionId;
    assert.deepEqual([response.deferredOffer, response.videoStreamId, response.audioStreamId], [false, videoStreamId, undefined]);
    await controller.registerSession(nodeId, { id, cameraEndpoint: ep, video: [videoStreamId] });
    await until("the camera's offer at the requestor", () => (controller.inbox.get(id)?.candidates.length ?? 0) > 0);
    assert.deepEqual(controller.inbox.get(id)?.offers, [`v=0 offer of session ${id}`]);
    assert.deepEqual(controller.inbox.get(id)?.answers, []);
    const session = fake.solicited.at(-1);
    assert.deepEqual([session?.id, session?.video, session?.audio, session?.iceTransportPolicy], [id, true, false, "relay"]);
    assert.deepEqual(session?.iceServers, [
      { urls: ["stun:stun.example.net:3478"] },
      { urls: ["turn:turn.example.net"], username: "u", credential: "c" },
    ]);
    assert.equal(streams.cameraAvStreamManagement.allocatedVideoStreams[0]?.referenceCount, 1, "the session holds its stream");

    const answer = (sdp: string, webRtcSessionId = id) =>
      controller.invoke(nodeId, ep, "WebRtcTransportProvider", "provideAnswer", { webRtcSessionId, sdp });
    await answer("v=0 the controller's answer");
    assert.deepEqual(fake.answers, [{ sessionId: id, sdp: "v=0 the controller's answer" }]);
    await rejectsWith(answer("v=0 again"), Status.InvalidInState);
    await rejectsWith(answer("v=0", 999), Status.NotFound);
    await controller.invoke(nodeId, ep, "WebRtcTransportProvider", "provideIceCandidates", {
      webRtcSessionId: id,
      iceCandidates: [{ candidate: "candidate:4 1 udp 4 ::1 50004 typ host", sdpMid: "0", sdpmLineIndex: 0 }],
    });
    assert.deepEqual(fake.received.at(-1), {
      sessionId: id,
      candidates: [{ candidate: "candidate:4 1 udp 4 ::1 50004 typ host", sdpMid: "0", sdpMLineIndex: 0 }],
    });

    // A session the controller offered itself has no offer of the camera's to answer.
    const offered = (await offer({
      webRtcSessionId: null,
      sdp: "v=0 own offer",
      streamUsage: LIVE_VIEW,
      originatingEndpointId: REQUESTOR_ENDPOINT,
      videoStreamId: null,
    })) as { webRtcSessionId: number };
    await rejectsWith(answer("v=0", offered.webRtcSessionId), Status.InvalidInState);
    assert.equal(fake.answers.length, 1);

    for (const ended of [id, offered.webRtcSessionId])
      await controller.invoke(nodeId, ep, "WebRtcTransportProvider", "endSession", { webRtcSessionId: ended, reason: 2 });
    assert.ok(fake.closed.includes(id), "EndSession closes the relay of a solicited session");
    assert.equal(streams.cameraAvStreamManagement.allocatedVideoStreams[0]?.referenceCount, 0);
    assert.deepEqual(streams.webRtcTransportProvider.currentSessions, []);
  });

  it("refuses SolicitOffer naming an unallocated stream, ProvideAnswer for unknown sessions, and metadata", async () => {
    await rejectsWith(
      controller.invoke(nodeId, ep, "WebRtcTransportProvider", "solicitOffer", {
        streamUsage: LIVE_VIEW,
        originatingEndpointId: REQUESTOR_ENDPOINT,
        audioStreams: [77],
      }),
      Status.DynamicConstraintError,
    );
    await rejectsWith(
      controller.invoke(nodeId, ep, "WebRtcTransportProvider", "provideAnswer", { webRtcSessionId: 999, sdp: "v=0" }),
      Status.NotFound,
    );
    await rejectsWith(
      controller.invoke(nodeId, ep, "WebRtcTransportProvider", "solicitOffer", {
        streamUsage: LIVE_VIEW,
        originatingEndpointId: REQUESTOR_ENDPOINT,
        videoStreamId: null,
        metadataEnabled: true,
      }),
      Status.InvalidCommand,
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
});
