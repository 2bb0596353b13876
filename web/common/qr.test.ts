import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { deflateSync } from "node:zlib";
import { decodePng, readQr, readQrPng, readQrSvg } from "../../lib/testing/qr-reader.ts";
import { QUIET_ZONE, qrMatrix, qrPng, qrSide, qrSvg } from "./qr.ts";

const LINKS = [
  "https://portal.example.org/?server=demo#token=Kx7mQ2pZ9wRt",
  "https://chat.example.org/#token=a.b_c~d-e",
  // The longest link a token can make: a 64-character token on a long slug.
  `https://registration.portal.example.org/?server=${"s".repeat(100)}#token=${"T".repeat(64)}`,
];

describe("QR codes of invite links", () => {
  for (const link of LINKS) {
    it(`reads the PNG back to the link (${link.length} characters)`, async () => {
      const file = await qrPng(link, (raw) => deflateSync(raw));
      assert.equal(readQrPng(file), link);
      const picture = decodePng(file);
      const qr = qrMatrix(link);
      assert.equal(picture.width, qrSide(qr) * 16, "16 pixels a module, quiet zone included");
      assert.deepEqual([...picture.rgba.subarray(0, 4)], [255, 255, 255, 255], "the quiet zone is white");
      const corner = (QUIET_ZONE * 16 * picture.width + QUIET_ZONE * 16) * 4;
      assert.deepEqual([...picture.rgba.subarray(corner, corner + 3)], [0, 0, 0], "a finder pattern starts after it");
    });

    it(`reads the SVG back to the link (${link.length} characters)`, () => {
      const svg = qrSvg(link, "Invitation <to> “demo”");
      assert.equal(readQrSvg(svg), link);
      assert.match(svg, /<title>Invitation &lt;to&gt; “demo”<\/title>/, "the title is escaped");
      assert.match(svg, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg" /);
    });
  }

  it("still reads with a damaged patch (error correction)", async () => {
    const link = LINKS[0] as string;
    const picture = decodePng(await qrPng(link, (raw) => deflateSync(raw)));
    // Invert a patch of data modules in the lower right, clear of the three finder patterns: every module there reads
    // wrong, as under a crease or a glare.
    const side = picture.width;
    let flipped = 0;
    for (let y = Math.floor(side * 0.6); y < Math.floor(side * 0.72); y++)
      for (let x = Math.floor(side * 0.6); x < Math.floor(side * 0.72); x++) {
        const at = (y * side + x) * 4;
        const value = 255 - (picture.rgba[at] as number);
        picture.rgba.fill(value, at, at + 3);
        flipped += value === 0 ? 1 : 0;
      }
    assert.ok(flipped > 0, "the patch held light modules that now read dark");
    assert.equal(readQr(picture), link);
  });
});
