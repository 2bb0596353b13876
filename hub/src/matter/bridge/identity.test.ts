import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { defaultUniqueId } from "../devices/endpoint-types.ts";
import {
  basicInformationFor,
  bridgeSerialNumber,
  bridgeUniqueId,
  entityUniqueId,
  PRODUCT_ID,
  uniqueIdFor,
  VENDOR_ID,
  versionNumber,
} from "./identity.ts";

const bytes = (text: string) => Buffer.byteLength(text, "utf8");
const identityInput = {
  name: "Bridge",
  vendorId: VENDOR_ID,
  productId: PRODUCT_ID,
  vendorName: "Matter Hub",
  productName: "Matter Hub Bridge",
  serialNumber: "mh-b1",
  uniqueId: "u",
  softwareVersion: "1.0.0",
};

describe("bridge identity", () => {
  it("derives the same ids as every earlier release (controllers and stored data know them)", () => {
    assert.equal(bridgeUniqueId("b1"), "8d93d3249ac0ccb6f309377f196cd1f8");
    assert.equal(bridgeSerialNumber("b1"), "mh-b1");
    assert.equal(entityUniqueId("e7", "b1"), "02c28227a2fc9b3716e2c4ab3e4ba801");
    assert.equal(defaultUniqueId("light.kitchen"), "0da34d3183408c82fadf8dade114fd8b");
    assert.equal(uniqueIdFor("x".repeat(40), "mh-b1"), "bd913ff68243d41b9611b2690dfbf2b0");
    assert.equal(uniqueIdFor("mh-b1", "mh-b1"), "b6577ba2e6964768130219648215a254");
  });

  it("cuts the bridge's names to their byte limits and drops the space a cut leaves", () => {
    const info = basicInformationFor({
      name: "Küche Deckenlicht über dem Esstisch",
      vendorId: VENDOR_ID,
      productId: PRODUCT_ID,
      vendorName: "Matter Hub",
      productName: "Matter Hub Bridge",
      serialNumber: "mh-b1",
      uniqueId: bridgeUniqueId("b1"),
      softwareVersion: "1.4.2",
    });
    assert.equal(info.nodeLabel, "Küche Deckenlicht über dem Ess");
    assert.equal(basicInformationFor({ ...identityInput, name: `${"a".repeat(31)} b` }).nodeLabel, "a".repeat(31));
    assert.equal(basicInformationFor({ ...identityInput, softwareVersion: "v".repeat(70) }).softwareVersionString.length, 64);
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
