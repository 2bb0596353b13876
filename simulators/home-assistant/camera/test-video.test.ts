import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it } from "node:test";
import { chromium } from "playwright-core";
import { annexBFrame, TEST_VIDEO, videoFrame } from "./test-video.ts";

/** Decodes Annex B frames with Chromium's WebCodecs H.264 decoder (a secure context: a page on localhost). */
async function decodeInChromium(frames: Uint8Array[]): Promise<string[]> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html", connection: "close" });
    response.end("<!doctype html><title>decode</title>");
  });
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
  try {
    const page = await browser.newPage();
    await page.goto(`http://localhost:${(server.address() as AddressInfo).port}/`);
    // A string, not a function: tsx would add helpers the page does not have.
    const script = `(async (frames) => {
      const out = [];
      const decoder = new VideoDecoder({
        output: (frame) => {
          const canvas = new OffscreenCanvas(frame.displayWidth, frame.displayHeight);
          const context = canvas.getContext("2d");
          context.drawImage(frame, 0, 0);
          const [r, g, b] = context.getImageData(8, 8, 1, 1).data;
          out.push(frame.displayWidth + "x" + frame.displayHeight + " " + r + "," + g + "," + b);
          frame.close();
        },
        error: (error) => out.push("error " + error.message),
      });
      decoder.configure({ codec: "avc1.42E01F" });
      frames.forEach((bytes, i) => decoder.decode(new EncodedVideoChunk({ type: "key", timestamp: i * 100000, data: new Uint8Array(bytes) })));
      await decoder.flush();
      return out;
    })(${JSON.stringify(frames.map((frame) => Array.from(frame)))})`;
    return (await page.evaluate(script)) as string[];
  } finally {
    await browser.close();
    server.close();
  }
}

describe("generated H.264 test video", () => {
  it("decodes in a real H.264 decoder to 64×48 pictures that change from frame to frame", { timeout: 60_000 }, async () => {
    const decoded = await decodeInChromium([0, 1, 20].map(annexBFrame));
    assert.equal(decoded.length, 3, decoded.join(" | "));
    for (const line of decoded) assert.match(line, new RegExp(`^${TEST_VIDEO.width}x${TEST_VIDEO.height} `));
    assert.notEqual(decoded[0]?.split(" ")[1], decoded[2]?.split(" ")[1], "the colour changes");
  });

  it("is packetised per RFC 6184: parameter sets whole, the IDR slice in FU-A fragments, the marker on the last", () => {
    const packets = videoFrame(3);
    assert.deepEqual(
      packets.slice(0, 2).map((p) => p.payload[0]),
      [0x67, 0x68],
    );
    const fragments = packets.slice(2);
    assert.ok(fragments.length >= 2);
    for (const { payload } of fragments) {
      assert.equal((payload[0] as number) & 0x1f, 28, "FU-A");
      assert.equal((payload[1] as number) & 0x1f, 5, "of an IDR slice");
      assert.ok(payload.length <= 1100);
    }
    assert.equal((fragments[0]?.payload[1] as number) & 0x80, 0x80, "start bit");
    assert.equal((fragments.at(-1)?.payload[1] as number) & 0x40, 0x40, "end bit");
    assert.deepEqual(
      packets.map((p) => p.marker),
      packets.map((_, i) => i === packets.length - 1),
    );
    const reassembled = fragments.flatMap(({ payload }) => [...payload.subarray(2)]);
    const idr = annexBFrame(3).subarray(annexBFrame(3).length - reassembled.length - 1);
    assert.deepEqual(reassembled, [...idr.subarray(1)], "the fragments carry the whole slice");
  });
});
