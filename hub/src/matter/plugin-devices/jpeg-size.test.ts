import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { TEST_IMAGE_SIZE, testCameraImage } from "../../../../simulators/home-assistant/camera/test-image.ts";
import { jpegSize } from "./jpeg-size.ts";

describe("jpegSize", () => {
  it("reads the size from the start-of-frame segment", () => {
    assert.deepEqual(jpegSize(testCameraImage()), TEST_IMAGE_SIZE);
    const progressive = Uint8Array.from([0xff, 0xd8, 0xff, 0xc2, 0x00, 0x11, 0x08, 0x02, 0xd0, 0x05, 0x00, 0x03]);
    assert.deepEqual(jpegSize(progressive), { width: 1280, height: 720 });
  });

  it("skips other segments and fill bytes, and refuses what is not a JPEG", () => {
    const withComment = Uint8Array.from([
      0xff, 0xd8, 0xff, 0xfe, 0x00, 0x04, 0x68, 0x69, 0xff, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x30, 0x00, 0x40,
    ]);
    assert.deepEqual(jpegSize(withComment), { width: 64, height: 48 });
    assert.equal(jpegSize(Uint8Array.from([0x89, 0x50, 0x4e, 0x47])), undefined, "a PNG");
    assert.equal(jpegSize(Uint8Array.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x08])), undefined, "scan data before any frame header");
    assert.equal(jpegSize(Uint8Array.from([0xff, 0xd8, 0xff, 0xc0, 0x00])), undefined, "cut short");
  });
});
