import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { basicInformationFor, truncateUtf8, uniqueIdFor, versionNumber } from "./identity.ts";

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

describe("bridge identity", () => {
  it("cuts names to 32 UTF-8 bytes without splitting a character", () => {
    assert.equal(truncateUtf8("Kitchen", 32), "Kitchen");
    const umlauts = "Ölförderpumpe über dem Küchenschrank";
    const cut = truncateUtf8(umlauts, 32);
    assert.ok(bytes(cut) <= 32);
    assert.ok(umlauts.startsWith(cut));
    const emoji = `${"a".repeat(30)}😀😀`;
    assert.equal(truncateUtf8(emoji, 32), "a".repeat(30), "a 4-byte character that does not fit is dropped whole");
    assert.equal(truncateUtf8(`${"a".repeat(31)} b`, 32), "a".repeat(31), "no trailing space after the cut");
  });

  it("keeps uniqueId within 32 bytes, distinct for long ids sharing a prefix, and never equal to the serial", () => {
    assert.equal(uniqueIdFor("bridge-1-uid", "bridge-1"), "bridge-1-uid");
    const a = uniqueIdFor(`${"x".repeat(40)}-a`, "sn");
    const b = uniqueIdFor(`${"x".repeat(40)}-b`, "sn");
    assert.equal(bytes(a), 32);
    assert.notEqual(a, b);
    const same = uniqueIdFor("same", "same");
    assert.notEqual(same, "same");
    assert.equal(bytes(same), 32);
  });

  it("packs version strings so that newer releases get larger numbers", () => {
    assert.equal(versionNumber("0.1.0"), 256);
    assert.equal(versionNumber("1.2.3"), 65536 + 512 + 3);
    assert.ok(versionNumber("1.10.0") > versionNumber("1.9.9"));
    assert.equal(versionNumber("dev"), 1, "never 0, which matter.js treats as a development value");
  });

  it("builds BasicInformation within the limits and without the values matter.js warns about", () => {
    const info = basicInformationFor({
      name: "A bridge with a really very long name indeed",
      vendorId: 0xfff1,
      productId: 0x8000,
      vendorName: "Matter Hub",
      productName: "Matter Hub Bridge",
      serialNumber: "serial-1",
      uniqueId: "serial-1",
      softwareVersion: "0.1.0",
    });
    for (const key of ["nodeLabel", "vendorName", "productName", "serialNumber", "uniqueId"] as const) {
      assert.ok(bytes(info[key]) <= 32, `${key} within 32 bytes`);
    }
    assert.notEqual(info.uniqueId, info.serialNumber);
    assert.equal(info.productLabel, "Bridge", "productLabel without the vendor name");
    assert.equal(info.hardwareVersion, 1);
    assert.equal(info.softwareVersion, 256);
    assert.equal(info.softwareVersionString, "0.1.0");
  });
});
