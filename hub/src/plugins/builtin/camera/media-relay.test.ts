import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CameraPeer } from "../../../../../simulators/home-assistant/camera/camera-peer.ts";
import { eventually } from "../../../../test/support/test-context.ts";
import { WebRtcViewer } from "../../../../test/support/webrtc-viewer.ts";
import type { CameraHa, HaWebRtcEvent, IceCandidate, SessionEndReason, SolicitedSession } from "../../builtin-services.ts";
import { MediaRelay } from "./media-relay.ts";
import { acceptedCodec } from "./sdp-media.ts";

const log = { info() {}, warn() {}, error() {}, debug() {} };

/** Open UDP sockets of this process (the relay's, the camera's and the viewer's peers). */
const udpSockets = () => process.getActiveResourcesInfo().filter((name) => name === "UDPWrap").length;

/** A Home Assistant whose camera answers with the simulator's streaming peer (or refuses with an error event). */
function streamingHa(options: { error?: string } = {}) {
  const state = { offers: [] as string[], peers: [] as CameraPeer[], unsubscribed: 0, configAsked: 0 };
  const ha: CameraHa = {
    friendlyName: () => undefined,
    async offer(_entityId, sdp, onEvent: (event: HaWebRtcEvent) => void) {
      state.offers.push(sdp);
      setImmediate(async () => {
        onEvent({ type: "session", session_id: "S1" });
        if (options.error) return onEvent({ type: "error", code: "webrtc_offer_failed", message: options.error });
        // The answer carries the camera's host candidates: its trickled ones add nothing here.
        const { peer, answer } = await CameraPeer.answer(sdp, [], () => undefined);
        state.peers.push(peer);
        onEvent({ type: "answer", answer });
      });
      return async () => {
        state.unsubscribed++;
        for (const peer of state.peers) await peer.close();
      };
    },
    candidate: async () => undefined,
    async iceServers() {
      state.configAsked++;
      return [];
    },
    streamTypes: async () => ["web_rtc"],
    image: async () => new Uint8Array(),
    onDisconnect: () => () => undefined,
    onReady: () => () => undefined,
    close: async () => undefined,
  };
  return { ha, state };
}

/** A solicited Matter session recording what the relay sends the controller. */
function solicited(id: number, fields: Partial<SolicitedSession> = {}) {
  const sent = { offers: [] as string[], candidates: [] as IceCandidate[], ends: [] as SessionEndReason[] };
  const session: SolicitedSession = {
    id,
    video: true,
    audio: false,
    iceServers: [],
    iceTransportPolicy: "all",
    offer: async (sdp) => void sent.offers.push(sdp),
    candidates: async (list) => void sent.candidates.push(...list),
    end: async (reason) => void sent.ends.push(reason),
    ...fields,
  };
  return { session, sent };
}

describe("camera media relay (solicited sessions)", () => {
  it("offers HA, then the controller, and forwards HA's H.264 RTP with the controller's payload type", async () => {
    const sockets = udpSockets();
    const { ha, state } = streamingHa();
    const { session, sent } = solicited(5, { audio: true });
    let closed = 0;
    const relay = new MediaRelay("camera.door", ha, session, log, () => closed++);
    relay.start();
    const offer = await eventually(() => sent.offers[0], 10_000);
    assert.equal(state.configAsked, 1, "HA's client configuration was asked for its ICE servers");
    assert.match(state.offers[0] ?? "", /m=video [^\r\n]*\r?\n(?:[^m].*\r?\n)*a=recvonly/, "HA is offered receive-only video");
    assert.match(state.offers[0] ?? "", /m=audio/, "and audio, since the controller asked for it");
    assert.match(offer, /a=sendonly/);
    assert.doesNotMatch(offer, /m=audio/, "HA's camera has no audio: the controller is offered none");
    assert.match(offer, /a=candidate:.* 127\.0\.0\.1 /, "the candidates gathered ride in the offer");
    assert.match(offer, /profile-level-id=42e01f/, "the codec HA's answer chose, untranscoded");

    // The controller numbers H.264 differently from HA: the forwarded packets must carry its number.
    const { viewer, sdp } = await WebRtcViewer.answering(offer.replace(/\b102\b/g, "120"));
    try {
      assert.equal(acceptedCodec(sdp, "video")?.payloadType, 120);
      relay.answer(sdp);
      await eventually(() => viewer.packets.length >= 20, 15_000);
      assert.ok(viewer.packets.every((p) => p.payloadType === 120));
      const types = new Set(viewer.packets.map((p) => p.fragmentType ?? p.nalType));
      assert.ok(types.has(7) && types.has(8) && types.has(5), `SPS, PPS and IDR slices arrive (${[...types]})`);
      await eventually(() => (state.peers[0]?.keyframeRequests ?? 0) >= 1, 5_000);
      // A decoder that lost packets asks the relay for a key frame: the request is passed on to HA's camera.
      await new Promise((resolve) => setTimeout(resolve, 600));
      const before = state.peers[0]?.keyframeRequests ?? 0;
      await viewer.requestKeyframe();
      await eventually(() => (state.peers[0]?.keyframeRequests ?? 0) > before, 5_000);
    } finally {
      relay.close();
      await viewer.close();
    }
    assert.equal(closed, 1);
    assert.equal(state.unsubscribed, 1, "HA's session was closed");
    assert.deepEqual(sent.ends, [], "the controller ended it: no End back");
    await eventually(() => udpSockets() === sockets, 5_000);
  });

  it("ends the session with End (failed) when HA refuses, and closes every socket", async () => {
    const sockets = udpSockets();
    const { ha } = streamingHa({ error: "camera offline" });
    const { session, sent } = solicited(6);
    new MediaRelay("camera.door", ha, session, log, () => undefined).start();
    await eventually(() => sent.ends.length > 0, 10_000);
    assert.deepEqual(sent.ends, ["failed"]);
    assert.deepEqual(sent.offers, [], "the controller was never offered a stream");
    await eventually(() => udpSockets() === sockets, 5_000);
  });

  it("ends the session when the controller never connects", async () => {
    const { ha, state } = streamingHa();
    const { session, sent } = solicited(7);
    new MediaRelay("camera.door", ha, session, log, () => undefined, { connectTimeoutMs: 1_500 }).start();
    await eventually(() => sent.ends.length > 0, 10_000);
    assert.deepEqual(sent.ends, ["failed"]);
    assert.equal(sent.offers.length, 1, "it was offered, but never answered");
    assert.equal(state.unsubscribed, 1);
  });
});
