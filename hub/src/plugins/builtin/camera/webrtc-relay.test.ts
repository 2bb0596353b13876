import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type {
  CameraHa,
  CameraSession,
  HaIceCandidate,
  HaWebRtcEvent,
  IceCandidate,
  SessionEndReason,
} from "../../builtin-services.ts";
import { CameraRelay } from "./webrtc-relay.ts";

const log = { info() {}, warn() {}, error() {}, debug() {} };
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A Home Assistant that records the offers and candidates it gets and lets the test push events. */
function fakeHa(options: { refuse?: string } = {}) {
  const offers: { entityId: string; sdp: string; emit: (event: HaWebRtcEvent) => void; unsubscribed: boolean }[] = [];
  const candidates: { sessionId: string; candidate: HaIceCandidate }[] = [];
  let disconnect: () => void = () => undefined;
  const ha: CameraHa = {
    friendlyName: () => undefined,
    async offer(entityId, sdp, onEvent) {
      if (options.refuse) throw new Error(options.refuse);
      const offer = { entityId, sdp, emit: onEvent, unsubscribed: false };
      offers.push(offer);
      return async () => {
        offer.unsubscribed = true;
      };
    },
    async candidate(_entityId, sessionId, candidate) {
      candidates.push({ sessionId, candidate });
    },
    iceServers: async () => [],
    streamTypes: async () => ["web_rtc"],
    image: async () => new Uint8Array([0xff, 0xd8]),
    onDisconnect(listener) {
      disconnect = listener;
      return () => {
        disconnect = () => undefined;
      };
    },
    onReady: () => () => undefined,
    close: async () => undefined,
  };
  return { ha, offers, candidates, disconnect: () => disconnect() };
}

/** A Matter session recording what the relay sends the controller. */
function matterSession(id: number, offer = "v=0 offer") {
  const sent = { answers: [] as string[], candidates: [] as IceCandidate[], ends: [] as SessionEndReason[] };
  const session: CameraSession = {
    id,
    offer,
    answer: async (sdp) => void sent.answers.push(sdp),
    candidates: async (list) => void sent.candidates.push(...list),
    end: async (reason) => void sent.ends.push(reason),
  };
  return { session, sent };
}

describe("camera WebRTC relay", () => {
  it("relays HA's answer and candidates, and holds the controller's candidates until HA named its session", async () => {
    const home = fakeHa();
    const relay = new CameraRelay("camera.door", home.ha, log, () => undefined);
    const { session, sent } = matterSession(7);
    relay.open(session);
    await tick();
    assert.equal(home.offers[0]?.sdp, "v=0 offer");
    relay.candidates(7, [
      { candidate: "candidate:1 1 udp 1 10.0.0.2 5000 typ host", sdpMid: "0", sdpMLineIndex: 0 },
      { candidate: "", sdpMid: null, sdpMLineIndex: null },
    ]);
    assert.equal(home.candidates.length, 0, "no HA session id yet");
    home.offers[0]?.emit({ type: "session", session_id: "S1" });
    home.offers[0]?.emit({ type: "answer", answer: "v=0 answer" });
    home.offers[0]?.emit({
      type: "candidate",
      candidate: { candidate: "candidate:2 1 udp 2 10.0.0.3 6000 typ host", sdpMid: "0" },
    });
    await tick();
    assert.deepEqual(home.candidates, [
      { sessionId: "S1", candidate: { candidate: "candidate:1 1 udp 1 10.0.0.2 5000 typ host", sdpMid: "0", sdpMLineIndex: 0 } },
    ]);
    relay.candidates(7, [{ candidate: "candidate:3 1 udp 3 10.0.0.2 5001 typ host", sdpMid: null, sdpMLineIndex: 0 }]);
    await tick();
    assert.deepEqual(home.candidates[1], {
      sessionId: "S1",
      candidate: { candidate: "candidate:3 1 udp 3 10.0.0.2 5001 typ host", sdpMLineIndex: 0 },
    });
    assert.deepEqual(sent.answers, ["v=0 answer"]);
    assert.deepEqual(sent.candidates, [
      { candidate: "candidate:2 1 udp 2 10.0.0.3 6000 typ host", sdpMid: "0", sdpMLineIndex: null },
    ]);
    assert.equal(relay.sessions, 1);

    relay.close(7);
    await tick();
    assert.equal(home.offers[0]?.unsubscribed, true, "EndSession closes HA's session");
    assert.deepEqual(sent.ends, [], "the controller ended it itself: no End back");
    assert.equal(relay.sessions, 0);
  });

  it("ends the Matter session when HA reports an error or refuses the offer", async () => {
    const home = fakeHa();
    const relay = new CameraRelay("camera.door", home.ha, log, () => undefined);
    const first = matterSession(1);
    relay.open(first.session);
    await tick();
    home.offers[0]?.emit({ type: "session", session_id: "S1" });
    home.offers[0]?.emit({ type: "error", code: "webrtc_offer_failed", message: "camera offline" });
    await tick();
    assert.deepEqual(first.sent.ends, ["failed"]);
    assert.equal(home.offers[0]?.unsubscribed, true);

    const refusing = fakeHa({ refuse: "Camera does not support WebRTC" });
    const second = matterSession(2);
    new CameraRelay("camera.hls", refusing.ha, log, () => undefined).open(second.session);
    await tick();
    assert.deepEqual(second.sent.ends, ["failed"]);
  });

  it("replaces a session on a re-offer and ends every session when HA's connection drops", async () => {
    const home = fakeHa();
    const relay = new CameraRelay("camera.door", home.ha, log, () => undefined);
    const one = matterSession(1, "v=0 first");
    relay.open(one.session);
    await tick();
    const again = matterSession(1, "v=0 again");
    relay.open(again.session);
    await tick();
    assert.equal(home.offers[0]?.unsubscribed, true, "the first HA session was closed");
    assert.equal(home.offers[1]?.sdp, "v=0 again");
    assert.equal(relay.sessions, 1);
    const two = matterSession(2);
    relay.open(two.session);
    await tick();
    home.disconnect();
    await tick();
    assert.deepEqual([again.sent.ends, two.sent.ends, one.sent.ends], [["failed"], ["failed"], []]);
    assert.equal(relay.sessions, 0);
  });

  it("ends open sessions with hangup when the camera leaves the settings", async () => {
    const home = fakeHa();
    const relay = new CameraRelay("camera.door", home.ha, log, () => undefined);
    const { session, sent } = matterSession(3);
    relay.open(session);
    await tick();
    relay.dispose("hangup");
    assert.deepEqual(sent.ends, ["hangup"]);
    assert.equal(home.offers[0]?.unsubscribed, true);
    home.disconnect();
    assert.deepEqual(sent.ends, ["hangup"], "no longer listening after dispose");
  });
});
