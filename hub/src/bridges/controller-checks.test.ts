import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type CheckedConfig, type CountedDevice, checkControllers, leftOutReason } from "./controller-checks.ts";
import { CONTROLLER_IDS, CONTROLLER_LIMITS } from "./controller-limits.ts";

const lights = (n: number): CountedDevice[] =>
  Array.from({ length: n }, (_, i) => ({ entityId: `light.l${i}`, deviceType: "dimmable_light", carries: [] }));
const config = (controllers: string[], extra: Partial<CheckedConfig> = {}): CheckedConfig => ({
  controllers,
  leaveOutUnsupported: false,
  port: 5540,
  serverMode: false,
  ...extra,
});

describe("controller checks", () => {
  it("warns above each controller's device limit, with the numbers and the sources, and not at the limit", () => {
    for (const id of CONTROLLER_IDS) {
      const entry = CONTROLLER_LIMITS.controllers[id];
      const limit = entry?.maxDevices.value;
      if (!entry) continue;
      if (limit === null || limit === undefined) {
        assert.deepEqual(checkControllers(config([id]), lights(1000)), [], `${id} has no known limit: no warning`);
        continue;
      }
      assert.deepEqual(checkControllers(config([id]), lights(limit)), [], `${id}: ${limit} devices fit`);
      const [warning, ...rest] = checkControllers(config([id]), lights(limit + 1));
      assert.equal(rest.length, 0);
      assert.equal(warning?.kind, "device_limit");
      if (warning?.kind !== "device_limit") continue;
      assert.equal(warning.controller, id);
      assert.equal(warning.limit, limit);
      assert.equal(warning.count, limit + 1);
      assert.match(
        warning.message,
        new RegExp(`^${limit + 1} devices on this bridge; ${entry.name} is reported to take at most ${limit} per bridge$`),
      );
      assert.deepEqual(warning.sources, entry.maxDevices.sources);
    }
  });

  it("warns for each chosen controller whose limit the bridge exceeds", () => {
    const warnings = checkControllers(config(["apple_home", "alexa"]), lights(151));
    assert.deepEqual(
      warnings.map((w) => `${w.controller} ${w.kind}`),
      ["apple_home device_limit", "alexa device_limit"],
    );
    assert.deepEqual(checkControllers(config([]), lights(500)), [], "no controllers: no checks");
  });

  it("flags device types a controller breaks on or does not show, naming the entities", () => {
    const devices = [
      ...lights(3),
      { entityId: "binary_sensor.kitchen_leak", deviceType: "water_leak_detector", carries: [] },
      { entityId: "sensor.pressure", deviceType: "pressure_sensor", carries: [] },
    ];
    const warnings = checkControllers(config(["alexa"]), devices);
    const leak = warnings.find((w) => w.kind === "device_type" && w.deviceType === "water_leak_detector");
    assert.ok(leak && leak.kind === "device_type");
    assert.equal(leak.effect, "breaks_bridge");
    assert.deepEqual(leak.entities, ["binary_sensor.kitchen_leak"]);
    assert.equal(leak.canLeaveOut, true);
    assert.match(leak.sources[0]?.url ?? "", /home-assistant-matter-hub\/issues\/365/);
    assert.ok(
      warnings.some((w) => w.kind === "device_type" && w.deviceType === "pressure_sensor" && w.effect === "not_rendered"),
    );
    assert.deepEqual(checkControllers(config(["home_assistant", "smartthings"]), devices), [], "HA and SmartThings show them");
  });

  it("flags a vacuum for Apple only when it shares the bridge, never in server mode", () => {
    const vacuum: CountedDevice = { entityId: "vacuum.roborock", deviceType: "robotic_vacuum_cleaner", carries: [] };
    assert.deepEqual(checkControllers(config(["apple_home"]), [vacuum]), [], "alone on its bridge");
    const shared = checkControllers(config(["apple_home"]), [vacuum, ...lights(2)]);
    assert.equal(shared.length, 1);
    assert.equal(shared[0]?.kind === "device_type" && shared[0].canLeaveOut, false, "a conditional gap is a warning only");
    assert.deepEqual(checkControllers(config(["apple_home"], { serverMode: true }), [vacuum, ...lights(2)]), []);
  });

  it("flags a light for Aqara only when its endpoint carries power or energy", () => {
    const plain = checkControllers(config(["aqara_home"]), lights(2));
    assert.deepEqual(plain, []);
    const metered = checkControllers(config(["aqara_home"]), [
      { entityId: "light.lamp", deviceType: "dimmable_light", carries: ["battery", "power"] },
    ]);
    assert.equal(metered.length, 1);
    assert.equal(metered[0]?.kind === "device_type" && metered[0].deviceType, "dimmable_light");
  });

  it("warns when Alexa's bridge is not on port 5540", () => {
    const [warning] = checkControllers(config(["alexa"], { port: 5541 }), lights(1));
    assert.equal(warning?.kind, "port");
    assert.match(warning?.message ?? "", /port 5540 only; this bridge uses 5541/);
    assert.deepEqual(checkControllers(config(["alexa"]), lights(1)), []);
    assert.deepEqual(checkControllers(config(["apple_home"], { port: 5541 }), lights(1)), []);
  });

  it("leaves a type out only when asked, for a chosen controller's unconditional gap, with the reason", () => {
    assert.equal(leftOutReason({ controllers: ["alexa"], leaveOutUnsupported: false }, "water_leak_detector"), undefined);
    assert.match(
      leftOutReason({ controllers: ["alexa"], leaveOutUnsupported: true }, "water_leak_detector") ?? "",
      /^left out for Amazon Alexa: A Matter 1\.4 leak/,
    );
    assert.equal(leftOutReason({ controllers: ["alexa"], leaveOutUnsupported: true }, "dimmable_light"), undefined);
    assert.equal(leftOutReason({ controllers: ["apple_home"], leaveOutUnsupported: true }, "robotic_vacuum_cleaner"), undefined);
    assert.equal(leftOutReason({ controllers: [], leaveOutUnsupported: true }, "water_leak_detector"), undefined);
    const both = leftOutReason({ controllers: ["apple_home", "alexa"], leaveOutUnsupported: true }, "speaker") ?? "";
    assert.match(both, /^left out for Apple Home and Amazon Alexa: Apple Home: .* Amazon Alexa: /);
    assert.equal(leftOutReason({ controllers: ["gone_controller"], leaveOutUnsupported: true }, "speaker"), undefined);
  });
});
