import assert from "node:assert/strict";
import { createSocket, type Socket } from "node:dgram";
import { once } from "node:events";
import { after, before, describe, it } from "node:test";
import { createPeer, GATHER_TIMEOUT_MS, gatherOffer, loadWerift, type Peer, upstreamCodecs } from "./relay-peer.ts";

/** A receive-only peer whose public-address lookup asks `stun`. */
async function peerAsking(stun: string, gatherTimeoutMs: number): Promise<Peer> {
  const pc = createPeer(await loadWerift(), upstreamCodecs(false), {
    iceServers: [{ urls: stun }],
    loopback: true,
    gatherTimeoutMs,
  });
  pc.addTransceiver("video", { direction: "recvonly" });
  return pc;
}

describe("relay peer candidate gathering", () => {
  /** A STUN server that never answers: a bound UDP port on loopback that drops every request. */
  let silent: Socket;
  let stun: string;
  before(async () => {
    silent = createSocket("udp4");
    silent.bind(0, "127.0.0.1");
    await once(silent, "listening");
    stun = `stun:127.0.0.1:${silent.address().port}`;
  });
  after(() => silent.close());

  it("waits at most 5 s per side for the public-address lookup by default", () => {
    assert.equal(GATHER_TIMEOUT_MS, 5_000);
  });

  it("sends the offer with the host candidates when the lookup server does not answer within the time box", async () => {
    // werift's own STUN time-out stays at 5 s here: the 400 ms box of gatherOffer is what lets the offer go.
    const pc = await peerAsking(stun, GATHER_TIMEOUT_MS);
    try {
      const started = Date.now();
      const offer = await gatherOffer(pc, 400, () => undefined);
      const elapsed = Date.now() - started;
      assert.ok(elapsed >= 350 && elapsed < 2_000, `went on after ${elapsed} ms`);
      assert.match(offer, /a=candidate:\S+ 1 udp \d+ 127\.0\.0\.1 \d+ typ host/, "the loopback host candidate is in it");
      assert.doesNotMatch(offer, /typ srflx/);
      assert.doesNotMatch(offer, /a=end-of-candidates/, "gathering did not complete");
    } finally {
      await pc.close();
    }
  });

  it("goes on after about 5 s with the default time box", async () => {
    const pc = await peerAsking(stun, GATHER_TIMEOUT_MS);
    try {
      const started = Date.now();
      const offer = await gatherOffer(pc, GATHER_TIMEOUT_MS, () => undefined);
      const elapsed = Date.now() - started;
      assert.ok(elapsed >= 4_500 && elapsed < 8_000, `went on after ${elapsed} ms`);
      assert.match(offer, /typ host/);
    } finally {
      await pc.close();
    }
  });

  it("sends at once when there is no lookup server to ask", async () => {
    const pc = createPeer(await loadWerift(), upstreamCodecs(true), { iceServers: [], loopback: true, gatherTimeoutMs: 5_000 });
    pc.addTransceiver("video", { direction: "recvonly" });
    try {
      const started = Date.now();
      const offer = await gatherOffer(pc, 5_000, () => undefined);
      assert.ok(Date.now() - started < 2_000);
      assert.match(offer, /127\.0\.0\.1 \d+ typ host/);
    } finally {
      await pc.close();
    }
  });
});
