import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkCluster, clusterRules, conformanceFindings, descriptorFindings, type EndpointRead } from "./conformance.ts";

const WINDOW_COVERING = 0x0102;
/** Lift + PositionAwareLift (bits 0 and 2). */
const LIFT = 0b101;

/** A raw read of one endpoint holding `clusters` (id → attribute id → value) behind a Descriptor listing them. */
function endpoint(deviceTypes: number[], clusters: Record<number, Record<number, unknown>>): EndpointRead {
  const raw: EndpointRead["raw"] = {
    "29": {
      "0": deviceTypes.map((type) => ({ "0": type, "1": 1 })),
      "1": [29, ...Object.keys(clusters).map(Number)],
      "2": [],
      "3": [],
      "65531": [0, 1, 2, 3, 65531, 65532, 65533, 65529, 65528],
      "65532": 0,
      "65533": 3,
      "65529": [],
      "65528": [],
    },
  };
  for (const [id, values] of Object.entries(clusters)) {
    raw[id] = Object.fromEntries(Object.entries(values).map(([attribute, value]) => [attribute, value]));
  }
  return { raw, typed: {} };
}

/** A cluster read that lists exactly `attributes` (each reported as 0) and accepts `commands`. */
function clusterRead(featureMap: number, attributes: number[], commands: number[]): Record<number, unknown> {
  const globals = [0xfffd, 0xfffc, 0xfffb, 0xfff9, 0xfff8];
  const read: Record<number, unknown> = Object.fromEntries(attributes.map((id) => [id, 0]));
  return { ...read, 65533: 5, 65532: featureMap, 65531: [...attributes, ...globals], 65529: commands, 65528: [] };
}

/** The mandatory attribute and command ids the rules name for these features (what a conforming server lists). */
function conforming(id: number, featureMap: number) {
  const rules = clusterRules(id, featureMap);
  assert.ok(rules);
  const attributes = rules.attributes.filter((a) => a.mandatory && a.id < 0xf000).map((a) => a.id);
  const commands = rules.commands.filter((c) => c.mandatory).map((c) => c.id);
  return { rules, attributes, commands };
}

describe("interop conformance checks (matter.js's model of the specification)", () => {
  it("derives the mandatory set from the FeatureMap: lift attributes with Lift, tilt ones ruled out", () => {
    const { rules, attributes, commands } = conforming(WINDOW_COVERING, LIFT);
    assert.deepEqual(rules.features, ["LF", "PA_LF"]);
    assert.ok(attributes.includes(0x000e), "CurrentPositionLiftPercent100ths");
    assert.ok(!attributes.includes(0x000f), "no CurrentPositionTiltPercent100ths");
    assert.deepEqual(commands, [0, 1, 2, 5], "UpOrOpen, DownOrClose, StopMotion, GoToLiftPercentage");
    assert.ok(rules.attributes.find((a) => a.id === 0x000f)?.disallowed);
  });

  it("a conforming cluster has no findings", () => {
    const { attributes, commands } = conforming(WINDOW_COVERING, LIFT);
    const read = endpoint([0x0202, 0x0013], { [WINDOW_COVERING]: clusterRead(LIFT, attributes, commands) });
    assert.deepEqual(conformanceFindings(read), []);
  });

  it("finds a missing mandatory attribute, a feature map that lies, and commands either way", () => {
    const { rules, attributes, commands } = conforming(WINDOW_COVERING, LIFT);
    const withoutLift = attributes.filter((id) => id !== 0x000e);
    const found = checkCluster(rules, clusterRead(LIFT, [...withoutLift, 0x000f], [...commands.filter((c) => c !== 5), 8]));
    assert.deepEqual(found.missingAttributes, ["CurrentPositionLiftPercent100ths (0xe)"]);
    assert.deepEqual(found.disallowedAttributes, ["CurrentPositionTiltPercent100ths (0xf)"]);
    assert.deepEqual(found.missingCommands, ["GoToLiftPercentage (0x5)"]);
    assert.deepEqual(found.disallowedCommands, ["GoToTiltPercentage (0x8)"]);
  });

  it("finds unknown FeatureMap bits, listed attributes that are not reported or fail, and values the SDK cannot decode", () => {
    const { attributes, commands } = conforming(WINDOW_COVERING, LIFT);
    const cluster = clusterRead(LIFT | (1 << 9), attributes, commands);
    delete cluster[0x0007];
    cluster[0x000a] = { status: "UnsupportedRead" };
    const read = endpoint([0x0202, 0x0013], { [WINDOW_COVERING]: cluster });
    read.typed = { WindowCovering: { Mode: { decodeError: "bad bitmap" } } };
    assert.deepEqual(conformanceFindings(read), [
      "WindowCovering [LF,PA_LF]: FeatureMap bit 9 is no feature",
      "WindowCovering [LF,PA_LF]: attribute 0x0007 listed but not reported",
      "WindowCovering [LF,PA_LF]: attribute 0x000a listed but read fails (UnsupportedRead)",
      "WindowCovering.Mode: the SDK cannot decode it (bad bitmap)",
    ]);
  });

  it("checks the device types listed and the server clusters each requires", () => {
    const { attributes, commands } = conforming(WINDOW_COVERING, LIFT);
    const read = endpoint([0x0202], { [WINDOW_COVERING]: clusterRead(LIFT, attributes, commands) });
    assert.deepEqual(descriptorFindings(read, 0x0202), [
      "DeviceTypeList lacks 0x0013 (has 0x0202)",
      "device type 0x0202 requires server cluster Identify",
    ]);
    assert.deepEqual(descriptorFindings(read, 0x0100)[0], "DeviceTypeList lacks 0x0100 (has 0x0202)");
  });
});
