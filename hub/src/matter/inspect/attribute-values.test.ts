import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Matter } from "@matter/main/model";
import { featureMapOf, showValue, VALUE_LIMITS } from "./attribute-values.ts";

const cluster = (name: string) => {
  const model = Matter.clusters(name);
  assert.ok(model, name);
  return model;
};
const attribute = (clusterName: string, name: string) => {
  const model = cluster(clusterName).attributes.find((a) => a.name === name);
  assert.ok(model, `${clusterName}.${name}`);
  return model;
};

describe("showValue", () => {
  it("names enum values, and says when a value is not in the model", () => {
    const startUp = attribute("OnOff", "StartUpOnOff");
    assert.deepEqual(showValue(startUp, 1), { value: 1, text: "On (1)", truncated: false });
    assert.equal(showValue(startUp, 9).text, "9 (not in the model)");
    assert.deepEqual(showValue(startUp, null), { value: null, text: "null", truncated: false });
  });

  it("shows bitmaps as their set flags, from matter.js's flag objects and from numbers", () => {
    const options = attribute("LevelControl", "Options");
    assert.deepEqual(showValue(options, { executeIfOff: true, coupleColorTempToLevel: false }), {
      value: { executeIfOff: true, coupleColorTempToLevel: false },
      text: "ExecuteIfOff",
      truncated: false,
    });
    assert.equal(showValue(options, { executeIfOff: false, coupleColorTempToLevel: false }).text, "none");
    assert.equal(showValue(options, 3).text, "ExecuteIfOff, CoupleColorTempToLevel");
  });

  it("names device types and clusters in the descriptor's lists", () => {
    const types = showValue(attribute("Descriptor", "DeviceTypeList"), [
      { deviceType: 0x0101, revision: 3 },
      { deviceType: 0x0013, revision: 3 },
    ]);
    assert.equal(
      types.text,
      "[{DeviceType: DimmableLight (0x0101), Revision: 3}, {DeviceType: BridgedNode (0x0013), Revision: 3}]",
    );
    assert.equal(showValue(attribute("Descriptor", "ServerList"), [6, 8]).text, "[OnOff (0x0006), LevelControl (0x0008)]");
  });

  it("names the global lists' attributes and commands through the cluster", () => {
    const onOff = cluster("OnOff");
    const accepted = attribute("OnOff", "AcceptedCommandList");
    assert.equal(showValue(accepted, [0, 1, 2], { cluster: onOff }).text, "[Off (0x00), On (0x01), Toggle (0x02)]");
    const list = attribute("OnOff", "AttributeList");
    assert.equal(showValue(list, [0, 0xfffd], { cluster: onOff }).text, "[OnOff (0x0000), ClusterRevision (0xFFFD)]");
  });

  it("bounds long lists, strings and byte strings, and says so", () => {
    const list = showValue(
      attribute("Descriptor", "PartsList"),
      Array.from({ length: 100 }, (_, i) => i + 2),
    );
    assert.equal((list.value as number[]).length, VALUE_LIMITS.listEntries);
    assert.match(list.text, /… 68 more\]$/);
    assert.equal(list.truncated, true);
    const label = showValue(attribute("BasicInformation", "NodeLabel"), "x".repeat(1000));
    assert.equal(label.truncated, true);
    assert.ok(label.text.length <= VALUE_LIMITS.textChars + 1);
    const bytes = showValue(undefined, new Uint8Array(100).fill(0xab));
    assert.equal(bytes.value, `${"ab".repeat(VALUE_LIMITS.bytes)}…`);
    assert.match(bytes.text, /\(100 bytes\)$/);
    assert.equal(showValue(undefined, 2n ** 64n).value, "18446744073709551616");
  });
});

describe("featureMapOf", () => {
  it("turns matter.js's feature flags into the number controllers read and the feature names", () => {
    assert.deepEqual(featureMapOf(cluster("LevelControl"), { onOff: true, lighting: true, frequency: false }), {
      featureMap: 3,
      features: ["OnOff", "Lighting"],
    });
    assert.deepEqual(featureMapOf(cluster("OnOff"), 1), { featureMap: 1, features: ["Lighting"] });
  });
});
