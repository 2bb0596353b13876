import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { gif, ico, png } from "../../test/support/images.ts";
import { icoProblem, sniffImage } from "./image-sniff.ts";

/** An ICONDIR with the given entries `[size, offset]`, followed by `payload`. */
function icoWith(entries: [number, number][], payload: Buffer, count = entries.length): Buffer {
  const header = Buffer.from([0, 0, 1, 0, count & 0xff, count >> 8]);
  const directory = entries.map(([size, offset]) => {
    const entry = Buffer.alloc(16);
    entry.set([1, 1, 0, 0], 0);
    entry.writeUInt16LE(1, 4);
    entry.writeUInt16LE(32, 6);
    entry.writeUInt32LE(size, 8);
    entry.writeUInt32LE(offset, 12);
    return entry;
  });
  return Buffer.concat([header, ...directory, payload]);
}

describe("sniffImage", () => {
  it("accepts a real ICO and GIF by their bytes", async () => {
    assert.deepEqual(await sniffImage(ico()), { ok: true, mimeType: "image/x-icon", extension: "ico" });
    assert.deepEqual(await sniffImage(gif()), { ok: true, mimeType: "image/gif", extension: "gif" });
  });

  it("refuses an ICO whose directory is missing, empty or points outside the file", async () => {
    const image = png();
    const cases: [string, Buffer, RegExp][] = [
      ["six-byte header only", Buffer.from([0, 0, 1, 0, 1, 0]), /cut off/],
      ["no entries", Buffer.concat([Buffer.from([0, 0, 1, 0, 0, 0]), Buffer.alloc(32)]), /no image/],
      ["directory cut off", icoWith([[image.length, 22]], image).subarray(0, 15), /cut off/],
      ["image cut off", icoWith([[image.length, 22]], image).subarray(0, 22 + image.length - 1), /outside the file/],
      ["image inside the directory", icoWith([[16, 6]], image), /outside the file/],
      ["empty image", icoWith([[0, 22]], image), /empty/],
      [
        "second image beyond the end",
        icoWith(
          [
            [image.length, 38],
            [image.length, 1_000_000],
          ],
          image,
        ),
        /image 2/,
      ],
      ["count larger than the directory", icoWith([[image.length, 22]], Buffer.alloc(0), 3), /cut off/],
    ];
    for (const [what, bytes, problem] of cases) {
      const result = await sniffImage(bytes);
      assert.equal(result.ok, false, what);
      assert.ok(!result.ok && result.reason === "damaged", what);
      assert.ok(!result.ok && result.reason === "damaged" && problem.test(result.problem), `${what}: ${JSON.stringify(result)}`);
    }
  });

  it("accepts an ICO with two images laid out after the directory", () => {
    const image = png();
    const two = icoWith(
      [
        [image.length, 38],
        [image.length, 38 + image.length],
      ],
      Buffer.concat([image, image]),
    );
    assert.equal(icoProblem(two), undefined);
  });

  it("reads the directory of a buffer that is a slice of a larger one", () => {
    const pool = Buffer.concat([Buffer.alloc(100, 0xff), ico()]);
    assert.equal(icoProblem(pool.subarray(100)), undefined);
  });
});
