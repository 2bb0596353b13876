import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CAMERA_SCHEMA, parseCameraSettings } from "./camera-settings.ts";

describe("camera settings", () => {
  const parse = (config: Record<string, unknown>) => {
    const warnings: string[] = [];
    return { settings: parseCameraSettings(config, (warning) => warnings.push(warning)), warnings };
  };

  it("splits, trims and de-duplicates the camera list, keeping the order", () => {
    const { settings, warnings } = parse({ cameras: " camera.front_door,camera.garden , camera.front_door,, " });
    assert.deepEqual(settings.cameras, ["camera.front_door", "camera.garden"]);
    assert.deepEqual(warnings, []);
  });

  it("skips ids Home Assistant cannot accept, and other domains, with a warning each", () => {
    const { settings, warnings } = parse({
      cameras: "camera.Front,camera.front-door,camera._hidden,camera.a__b,camera.trailing_,light.kitchen,camera,camera.ok_1",
    });
    assert.deepEqual(settings.cameras, ["camera.ok_1"]);
    assert.equal(warnings.length, 7);
    for (const bad of ["camera.Front", "camera.front-door", "camera._hidden", "camera.a__b", "camera.trailing_", '"camera"'])
      assert.ok(
        warnings.some((w) => w.includes(bad) && w.endsWith("skipped")),
        bad,
      );
    assert.ok(warnings.some((w) => w === "cameras: light.kitchen is not a camera entity; skipped"));
  });

  it("needs no cameras (no devices then) and ignores a non-string list", () => {
    assert.deepEqual(parse({}).settings, { cameras: [], ha: null });
    assert.deepEqual(parse({ cameras: 3 }).settings.cameras, []);
  });

  it("takes haUrl and haToken only as a pair", () => {
    assert.deepEqual(parse({ haUrl: " http://ha:8123 ", haToken: " abc " }).settings.ha, { url: "http://ha:8123", token: "abc" });
    const half = parse({ haUrl: "http://ha:8123", haToken: "" });
    assert.equal(half.settings.ha, null);
    assert.deepEqual(half.warnings, ["set both haUrl and haToken, or neither: the pair is ignored"]);
  });

  it("declares the token secret, so it is stored apart and never sent back", () => {
    assert.equal(CAMERA_SCHEMA.properties.haToken?.secret, true);
    assert.equal(CAMERA_SCHEMA.properties.cameras?.type, "string");
  });
});
