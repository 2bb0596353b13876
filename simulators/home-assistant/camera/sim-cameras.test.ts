import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Connection } from "home-assistant-js-websocket";
import { WebRtcViewer } from "../../../hub/test/support/webrtc-viewer.ts";
import { createHomeBuilder } from "../home-builder.ts";
import { startHaSimulator } from "../simulator.ts";
import { connectClient, until } from "../test-helpers.ts";
import type { HaSimulator } from "../types.ts";
import { testCameraImage } from "./test-image.ts";

type WebRtcEvent =
  | { type: "session"; session_id: string }
  | { type: "answer"; answer: string }
  | { type: "candidate"; candidate: { candidate: string; sdpMid?: string; sdpMLineIndex?: number } }
  | { type: "error"; code: string; message: string };

describe("simulated cameras (HA camera WebRTC API and camera proxy)", () => {
  let sim: HaSimulator;
  let client: Connection;

  before(async () => {
    sim = await startHaSimulator({
      token: "t",
      home: createHomeBuilder({ seed: "cameras", now: Date.now() }).build(),
      motionMs: 0,
    });
    sim.addCamera("camera.front_door", { friendlyName: "Front door" });
    sim.addCamera("camera.garden", { webrtc: false, iceServers: [{ urls: "stun:stun.example.org:3478" }] });
    client = await connectClient(sim);
  });
  after(async () => {
    client?.close();
    await sim?.close();
  });

  it("answers an offer with a live WebRTC peer that streams H.264 RTP until the subscription ends", async () => {
    const viewer = await WebRtcViewer.create();
    const events: WebRtcEvent[] = [];
    try {
      const unsubscribe = await client.subscribeMessage<WebRtcEvent>((event) => void events.push(event), {
        type: "camera/webrtc/offer",
        entity_id: "camera.front_door",
        offer: await viewer.offer(),
      });
      const session = await until(() => events.find((e) => e.type === "session"), 2000, "session");
      const answer = await until(() => events.find((e) => e.type === "answer"), 5000, "answer");
      assert.match(answer.answer, /a=sendonly/);
      assert.match(answer.answer, /H264\/90000/);
      await viewer.answer(answer.answer);
      for (const event of events) if (event.type === "candidate") await viewer.addCandidate(event.candidate);
      for (const candidate of viewer.candidates) {
        await client.sendMessagePromise({
          type: "camera/webrtc/candidate",
          entity_id: "camera.front_door",
          session_id: session.session_id,
          candidate,
        });
      }
      await until(() => viewer.packets.length >= 30, 10_000, "30 RTP packets");
      const types = new Set(viewer.packets.map((p) => p.fragmentType ?? p.nalType));
      assert.ok(types.has(7) && types.has(8) && types.has(5), `SPS, PPS and IDR slices arrive (${[...types]})`);
      assert.ok(
        viewer.packets.some((p) => p.nalType === 28),
        "the IDR slices are FU-A fragments",
      );
      const stats = sim.cameraStats("camera.front_door");
      assert.equal(stats?.offers, 1);
      assert.equal(stats?.openSessions, 1);
      assert.ok((stats?.packetsSent ?? 0) >= viewer.packets.length);
      await unsubscribe();
      await until(() => sim.cameraStats("camera.front_door")?.openSessions === 0, 2000, "the session closed");
      const sent = sim.cameraStats("camera.front_door")?.packetsSent ?? 0;
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(sim.cameraStats("camera.front_door")?.packetsSent, sent, "no packets after the session closed");
    } finally {
      await viewer.close();
    }
  });

  it("refuses a camera without WebRTC and an unknown camera with HA's error codes", async () => {
    await assert.rejects(
      client.sendMessagePromise({ type: "camera/webrtc/offer", entity_id: "camera.garden", offer: "v=0" }),
      (error: { code?: string }) => error.code === "webrtc_offer_failed",
    );
    await assert.rejects(
      client.sendMessagePromise({ type: "camera/webrtc/offer", entity_id: "camera.nowhere", offer: "v=0" }),
      (error: { code?: string; message?: string }) =>
        error.code === "home_assistant_error" && error.message === "Camera not found",
    );
    assert.deepEqual(await client.sendMessagePromise({ type: "camera/capabilities", entity_id: "camera.garden" }), {
      frontend_stream_types: ["hls"],
    });
    assert.deepEqual(await client.sendMessagePromise({ type: "camera/capabilities", entity_id: "camera.front_door" }), {
      frontend_stream_types: ["hls", "web_rtc"],
    });
    assert.deepEqual(
      await client.sendMessagePromise({ type: "camera/webrtc/get_client_config", entity_id: "camera.front_door" }),
      { configuration: { iceServers: [] } },
    );
  });

  it("ends an offer the peer cannot answer with an error event", async () => {
    const events: WebRtcEvent[] = [];
    const unsubscribe = await client.subscribeMessage<WebRtcEvent>((event) => void events.push(event), {
      type: "camera/webrtc/offer",
      entity_id: "camera.front_door",
      offer: "v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n",
    });
    const error = await until(() => events.find((e) => e.type === "error"), 5000, "error");
    assert.equal(error.code, "webrtc_offer_failed");
    assert.deepEqual(
      events.map((e) => e.type),
      ["session", "error"],
    );
    await unsubscribe();
  });

  it("serves the camera image to the long-lived token and to the entity's access token only", async () => {
    const url = `${sim.url}/api/camera_proxy/camera.front_door`;
    const withBearer = await fetch(`${url}?width=640&height=480`, { headers: { Authorization: "Bearer t" } });
    assert.equal(withBearer.status, 200);
    assert.equal(withBearer.headers.get("content-type"), "image/jpeg");
    assert.deepEqual(Buffer.from(await withBearer.arrayBuffer()), Buffer.from(testCameraImage()));
    const picture = sim.getState("camera.front_door")?.attributes.entity_picture as string;
    assert.equal((await fetch(`${sim.url}${picture}`)).status, 200);
    assert.equal((await fetch(url)).status, 401);
    assert.equal((await fetch(`${url}?token=wrong`)).status, 401);
    assert.equal(
      (await fetch(`${sim.url}/api/camera_proxy/camera.nowhere`, { headers: { Authorization: "Bearer t" } })).status,
      404,
    );
  });
});
