import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { acceptedCodec, rewritePayloadType, withCandidates } from "./sdp-media.ts";

/** An answer as go2rtc gives one: H.264 with RTX, audio rejected, then an application section. */
const ANSWER = [
  "v=0",
  "o=- 1 1 IN IP4 0.0.0.0",
  "s=-",
  "t=0 0",
  "a=group:BUNDLE 0",
  "m=video 9 UDP/TLS/RTP/SAVPF 97 96",
  "c=IN IP4 0.0.0.0",
  "a=mid:0",
  "a=sendonly",
  "a=rtpmap:97 rtx/90000",
  "a=fmtp:97 apt=96",
  "a=rtpmap:96 H264/90000",
  "a=fmtp:96 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=640029",
  "m=audio 0 UDP/TLS/RTP/SAVPF 111",
  "c=IN IP4 0.0.0.0",
  "a=mid:1",
  "a=rtpmap:111 opus/48000/2",
  "",
].join("\r\n");

describe("SDP and RTP rewriting of the media relay", () => {
  it("reads the codec an answer accepted, skipping retransmission codecs and rejected sections", () => {
    assert.deepEqual(acceptedCodec(ANSWER, "video"), {
      payloadType: 96,
      mimeType: "video/H264",
      clockRate: 90_000,
      parameters: "level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=640029",
    });
    assert.equal(acceptedCodec(ANSWER, "audio"), undefined, "port 0: HA's camera sends no audio");
    const audio = ANSWER.replace("m=audio 0 ", "m=audio 9 ");
    assert.deepEqual(acceptedCodec(audio, "audio"), { payloadType: 111, mimeType: "audio/opus", clockRate: 48_000, channels: 2 });
    assert.equal(acceptedCodec(audio.replace("a=mid:1", "a=mid:1\r\na=inactive"), "audio"), undefined);
  });

  it("puts candidates into the media section they name, by mid or else by index, once", () => {
    const host = { candidate: "candidate:1 1 udp 2130706431 127.0.0.1 50000 typ host", sdpMid: "1", sdpMLineIndex: null };
    const byIndex = { candidate: "candidate:2 1 udp 2130706431 10.0.0.5 50002 typ host", sdpMid: null, sdpMLineIndex: 0 };
    const sdp = withCandidates(ANSWER, [host, byIndex, host, { candidate: "", sdpMid: "0", sdpMLineIndex: 0 }]);
    const lines = sdp.split("\r\n");
    const audioAt = lines.indexOf("m=audio 0 UDP/TLS/RTP/SAVPF 111");
    assert.equal(lines.indexOf(`a=${byIndex.candidate}`), audioAt - 1, "the end of the video section");
    assert.equal(lines.indexOf(`a=${host.candidate}`), lines.length - 2, "the end of the audio section");
    assert.equal(lines.filter((line) => line.startsWith("a=candidate:")).length, 2, "no duplicate, no empty marker");
    assert.ok(sdp.endsWith("\r\n"));
    assert.equal(withCandidates(sdp, [host]), sdp, "a candidate already there is not added again");
  });

  it("rewrites a forwarded packet to the controller's payload type and drops other payload types", () => {
    const map = { from: 96, to: 102 };
    const video = { payloadType: 96 };
    assert.equal(rewritePayloadType(video, map), true);
    assert.equal(video.payloadType, 102);
    const rtx = { payloadType: 97 };
    assert.equal(rewritePayloadType(rtx, map), false, "HA's retransmission stream is not the controller's H.264");
    assert.equal(rtx.payloadType, 97);
  });
});
