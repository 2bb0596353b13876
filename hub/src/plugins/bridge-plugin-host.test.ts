import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { memoryLogger } from "../../../lib/testing/fixtures.ts";
import { eventually } from "../../test/support/test-context.ts";
import type { HubPlugin, PluginConfig, PluginContext } from "./api.ts";
import { BridgePluginHost } from "./bridge-plugin-host.ts";
import { FakeClock, settle } from "./clock.ts";
import type { SlotInfo } from "./managed-slot.ts";
import { pluginEndpointId } from "./plugin-device-set.ts";
import type { PluginSource } from "./plugin-source.ts";
import { type FakeSeam, fakeSeam } from "./testing/fake-seam.ts";

/** A scriptable plugin: each hook does what the test sets in `script`. */
class ScriptedPlugin implements HubPlugin {
  readonly name = "scripted";
  readonly version = "1.0.0";
  static script: { start?: (context: PluginContext) => Promise<void> | void; configChanged?: (config: PluginConfig) => void } =
    {};
  static contexts: PluginContext[] = [];
  static configs: PluginConfig[] = [];
  static writes: string[] = [];
  static shutdowns: (string | undefined)[] = [];
  async onStart(context: PluginContext) {
    ScriptedPlugin.contexts.push(context);
    await ScriptedPlugin.script.start?.(context);
  }
  onConfigure() {}
  onShutdown(reason?: string) {
    ScriptedPlugin.shutdowns.push(reason);
  }
  getConfigSchema() {
    return {
      title: "Scripted",
      properties: {
        password: { type: "string" as const, title: "Password", secret: true },
        level: { type: "integer" as const, title: "Level", maximum: 10 },
      },
    };
  }
  onConfigChanged(config: PluginConfig) {
    ScriptedPlugin.configs.push(config);
    ScriptedPlugin.script.configChanged?.(config);
  }
}

const lamp = (context: PluginContext) =>
  context.registerDevice({
    id: "lamp",
    name: "Lamp",
    deviceType: "on_off_light",
    onAttributeWrite: (clusterId, attribute, value) =>
      void ScriptedPlugin.writes.push(`${clusterId}.${attribute}=${String(value)}`),
  });

describe("plugin host: lifecycle, time-outs, circuit breaker, enablement and configuration", () => {
  const source: PluginSource = { name: "scripted", builtin: false, instantiate: async () => new ScriptedPlugin() };
  let dir: string;
  let clock: FakeClock;
  let seam: FakeSeam;
  let host: BridgePluginHost;
  const { log, lines } = memoryLogger("debug");

  const newHost = () => {
    const made = new BridgePluginHost(seam, {
      dataDir: dir,
      log,
      clock,
      timeoutMs: 10_000,
      retryDelayMs: 30_000,
      sources: () => [source],
      onDispose: () => undefined,
    });
    made.start();
    return made;
  };
  const info = async (): Promise<SlotInfo> => (await (await host.slot("scripted"))!.info())!;
  const slot = async () => (await host.slot("scripted"))!;
  /**
   * Real file I/O runs before a hook is called: wait until a time-out timer exists, then let the time-boxed load
   * of the plugin settle, so the timer left is the hook's.
   */
  const timerArmed = async () => {
    for (let i = 0; i < 200 && clock.pending === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    await settle();
    assert.ok(clock.pending > 0, "a timer is pending");
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "plugin-host-"));
    clock = new FakeClock();
    seam = fakeSeam();
    host = newHost();
    await settle();
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("keeps an installed plugin disabled until enabled, then runs it and delivers controller writes", async () => {
    assert.equal((await info()).state, "disabled");
    ScriptedPlugin.script = { start: lamp };
    await (await slot()).enable();
    await eventually(async () => (await info()).state === "running");
    const running = await info();
    assert.equal(running.state, "running");
    assert.deepEqual(
      running.devices.map((d) => [d.id, d.endpointId]),
      [["lamp", "p-scripted-lamp"]],
    );
    seam.write("p-scripted-lamp", "onOff", "onOff", true);
    await settle();
    assert.deepEqual(ScriptedPlugin.writes, ["onOff.onOff=true"]);
  });

  it("times a hanging onStart out at exactly 10 s and counts it", async () => {
    await (await slot()).disable();
    // onStart is called after its time-out timer is set: once it runs, the 10 s count has begun.
    const called = new Promise<void>((resolve) => {
      ScriptedPlugin.script = {
        start: () => {
          resolve();
          return new Promise(() => undefined);
        },
      };
    });
    await (await slot()).enable();
    await called;
    await clock.advance(9_999);
    assert.equal((await info()).state, "starting");
    await clock.advance(1);
    const failed = await eventually(async () => {
      const current = await info();
      return current.state === "failed" ? current : undefined;
    });
    assert.equal(failed.state, "failed");
    assert.equal(failed.failures, 1);
    assert.match(failed.lastError ?? "", /onStart failed: did not finish within 10 s/);
  });

  it("retries a failed start and trips the breaker on the third consecutive failure", async () => {
    ScriptedPlugin.script = {
      start: () => {
        throw new Error("boom");
      },
    };
    await clock.advance(30_000);
    await eventually(async () => {
      const current = await info();
      return current.failures === 2 && current.state === "failed";
    });
    await timerArmed();
    await clock.advance(30_000);
    await eventually(async () => (await info()).state === "tripped");
    const tripped = await info();
    assert.equal(tripped.state, "tripped");
    assert.equal(tripped.failures, 3);
    assert.equal(tripped.autoDisabled, true);
    assert.ok(
      lines().some((line) =>
        line.includes("circuit breaker tripped: plugin scripted auto-disabled after 3 consecutive failures"),
      ),
    );
    await clock.advance(60_000);
    assert.equal((await info()).failures, 3, "no retry once tripped");
    const state = JSON.parse(await readFile(join(dir, "plugins", "b1", "scripted", "state.json"), "utf8"));
    assert.deepEqual(state, { enabled: true, autoDisabled: true, failures: 3, lastError: "onStart failed: boom" });
    await assert.rejects((await slot()).enable(), /disabled by the circuit breaker/);
  });

  it("keeps the trip across a restart, and reset re-enables the plugin with a fresh count", async () => {
    await host.stop("bridge stopping");
    host = newHost();
    await settle();
    assert.equal((await info()).state, "tripped");
    ScriptedPlugin.script = { start: lamp };
    await (await slot()).reset();
    await eventually(async () => (await info()).state === "running");
    const reset = await info();
    assert.equal(reset.state, "running");
    assert.equal(reset.failures, 0);
    assert.equal(reset.lastError, null);
  });

  it("revokes the context of an ended run, and refuses endpointType from an external plugin", async () => {
    const context = ScriptedPlugin.contexts.at(-1)!;
    await assert.rejects(
      context.registerDevice({ id: "x", name: "X", endpointType: {} }),
      /endpointType works only for built-in plugins/,
    );
    await (await slot()).disable();
    await assert.rejects(
      context.registerDevice({ id: "x", name: "X", deviceType: "on_off_light" }),
      /belongs to a run that has ended/,
    );
    assert.equal(seam.mounted.size, 0, "disable removes the devices at once");
    assert.equal(ScriptedPlugin.shutdowns.at(-1), "disabled");
  });

  it("keeps secrets out of the public config, applies config live, and counts a failing onConfigChanged", async () => {
    await (await slot()).enable();
    await eventually(async () => (await info()).state === "running");
    const applied = await (await slot()).configure({ password: "hunter2", level: 3 });
    assert.deepEqual(applied, { applied: true, error: null });
    assert.deepEqual(ScriptedPlugin.configs.at(-1), { level: 3, password: "hunter2" });
    const shown = await info();
    assert.deepEqual(shown.config, { level: 3 });
    assert.deepEqual(shown.secretsSet, ["password"]);
    assert.doesNotMatch(await readFile(join(dir, "plugins", "b1", "scripted", "config.json"), "utf8"), /hunter2/);
    assert.match(await readFile(join(dir, "plugins", "b1", "scripted", "secrets.json"), "utf8"), /hunter2/);
    await (await slot()).configure({ password: "", level: 4 });
    assert.deepEqual(ScriptedPlugin.configs.at(-1), { level: 4, password: "hunter2" }, "an empty secret keeps the stored one");
    await assert.rejects((await slot()).configure({ level: 11 }), /config.level must be at most 10/);
    ScriptedPlugin.script.configChanged = () => {
      throw new Error("bad config");
    };
    const failed = await (await slot()).configure({ level: 5 });
    assert.deepEqual(failed, { applied: false, error: "onConfigChanged failed: bad config" });
    assert.equal((await info()).failures, 1);
    assert.equal((await info()).state, "running", "one failure does not stop the plugin");
  });

  it("derives stable endpoint ids, hashing names that need cleaning", () => {
    assert.equal(pluginEndpointId("scripted", "lamp"), "p-scripted-lamp");
    const scoped = pluginEndpointId("@acme/hub-plugin", "living room.lamp");
    assert.match(scoped, /^p-_acme_hub_plugin-living_room_lamp-[0-9a-f]{8}$/);
    assert.equal(pluginEndpointId("@acme/hub-plugin", "living room.lamp"), scoped);
    assert.notEqual(pluginEndpointId("a-b", "c"), pluginEndpointId("a", "b-c"));
  });
});

describe("plugin host: loading a plugin is time-boxed too", () => {
  it("times out a module whose top level never settles, and trips the breaker on the third try", async () => {
    const dir = await mkdtemp(join(tmpdir(), "plugin-host-load-"));
    const clock = new FakeClock();
    let loads = 0;
    const hanging: PluginSource = {
      name: "hanging-import",
      builtin: true,
      instantiate: () => {
        loads++;
        return new Promise(() => undefined);
      },
    };
    const host = new BridgePluginHost(fakeSeam(), {
      dataDir: dir,
      log: memoryLogger().log,
      clock,
      timeoutMs: 10_000,
      retryDelayMs: 30_000,
      sources: () => [hanging],
      onDispose: () => undefined,
    });
    try {
      host.start();
      const info = async () => (await (await host.slot("hanging-import"))!.info())!;
      await eventually(async () => loads === 1 && clock.pending > 0);
      assert.equal((await info()).state, "starting");
      await clock.advance(10_000);
      const failed = await eventually(async () => ((await info()).state === "failed" ? info() : undefined));
      assert.match(failed.lastError ?? "", /^load failed: did not finish within 10 s$/);
      for (const expected of [2, 3]) {
        await eventually(async () => clock.pending > 0); // the retry timer
        await clock.advance(30_000);
        await eventually(async () => loads === expected && clock.pending > 0);
        await clock.advance(10_000);
      }
      const tripped = await eventually(async () => ((await info()).state === "tripped" ? info() : undefined));
      assert.equal(tripped.failures, 3);
    } finally {
      await host.stop("test over");
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("plugin host: what a built-in may register beyond the plugin API", () => {
  it("refuses an endpointType that is not a device of the built-in services, and mounts nothing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "plugin-host-builtin-"));
    const seam = fakeSeam();
    const refused: string[] = [];
    const raw: PluginSource = {
      name: "raw-builtin",
      builtin: true,
      instantiate: async () => ({
        name: "raw-builtin",
        version: "1.0.0",
        async onStart(context: PluginContext) {
          for (const endpointType of [{}, { kind: "camera" }, "CameraDevice"]) {
            await context
              .registerDevice({ id: "cam", name: "Camera", endpointType })
              .catch((error: Error) => void refused.push(error.message));
          }
        },
        onConfigure() {},
        onShutdown() {},
        getConfigSchema: () => undefined,
        onConfigChanged() {},
      }),
    };
    const host = new BridgePluginHost(seam, {
      dataDir: dir,
      log: memoryLogger().log,
      clock: new FakeClock(),
      timeoutMs: 10_000,
      retryDelayMs: 30_000,
      sources: () => [raw],
      onDispose: () => undefined,
    });
    try {
      host.start();
      await eventually(async () => (await (await host.slot("raw-builtin"))!.info())?.state === "running");
      assert.equal(refused.length, 3);
      for (const message of refused) assert.match(message, /endpointType must be a device of the built-in services/);
      assert.equal(seam.mounted.size, 0, "nothing reached the bridge");
    } finally {
      await host.stop("test over");
      await rm(dir, { recursive: true, force: true });
    }
  });
});
