import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { Environment, Logger, StorageService } from "@matter/main";
import { memoryLogger } from "../../../lib/testing/fixtures.ts";
import { assertNetworkIsolated } from "../../../lib/testing/isolation.ts";
import { spawnCaptured } from "../../../lib/testing/processes.ts";
import { tempDir, until } from "../../test/support/matter-fixtures.ts";
import { createMatterEnvironment } from "./matter-environment.ts";
import { matterLevelFor } from "./matter-log.ts";

const childScript = fileURLToPath(new URL("../../test/support/matter-signal-child.ts", import.meta.url));

describe("createMatterEnvironment", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  before(async () => {
    assertNetworkIsolated();
    dir = await tempDir("matter-env");
  });
  after(() => dir.remove());

  it("builds its own Environment with file storage at the given path and mDNS pinned to the interface", async () => {
    const { log } = memoryLogger();
    const matter = createMatterEnvironment({ storagePath: `${dir.path}/own`, log, mdnsInterface: "lo" });
    try {
      assert.notEqual(matter.environment, Environment.default);
      assert.equal(matter.environment.vars.get("mdns.networkInterface"), "lo");
      assert.equal(matter.environment.vars.get("storage.path"), `${dir.path}/own`);
      const storage = await matter.environment.get(StorageService).open("probe");
      await storage.createContext("x").set("answer", 42);
      await storage.close();
      assert.ok(existsSync(`${dir.path}/own/probe`), "file storage under storagePath");
    } finally {
      await matter.close();
    }
  });

  it("forwards matter.js logs into pino with the facility, one level lower, and silences the console", async () => {
    const { log, lines } = memoryLogger("debug");
    const matter = createMatterEnvironment({ storagePath: `${dir.path}/logs`, log });
    try {
      assert.equal("default" in Logger.destinations, false, "console destination removed");
      const facility = Logger.get("HubProbe");
      facility.notice("a notice");
      facility.info("an info");
      facility.debug("a debug line");
      facility.warn("a warning", { detail: 1 });
      const probe = lines()
        .map((line) => JSON.parse(line) as { level: string; facility?: string; msg: string })
        .filter((entry) => entry.facility === "HubProbe");
      assert.deepEqual(
        probe.map((entry) => [entry.level, entry.msg]),
        [
          ["info", "a notice"],
          ["debug", "an info"],
          ["warn", "a warning { detail: 1 }"],
        ],
      );
    } finally {
      await matter.close();
    }
    assert.equal("default" in Logger.destinations, true, "console destination back after the last environment closed");
  });

  it("derives the matter.js threshold from the pino level", () => {
    assert.equal(matterLevelFor(memoryLogger("trace").log), "debug");
    assert.equal(matterLevelFor(memoryLogger("debug").log), "info");
    assert.equal(matterLevelFor(memoryLogger("info").log), "notice");
  });

  it("leaves the signals to the hub: matter.js installs no handler and sets no exit code", async () => {
    // A real process (a few seconds of tsx + matter.js start-up): SIGTERM is what the Supervisor sends. The child
    // also reports that no SIGINT/SIGUSR2/SIGABRT listener exists.
    await signalRoundTrip("SIGTERM");
  });
});

/** Starts the child bridge, checks it installed no matter.js signal listener, signals it and waits for a clean end. */
async function signalRoundTrip(signal: NodeJS.Signals): Promise<void> {
  const child = spawnCaptured(process.execPath, ["--import", "tsx", childScript], { cwd: process.cwd(), env: process.env });
  let timer: NodeJS.Timeout | undefined;
  try {
    await until("the child bridge to be online", () => child.output().includes("ready "), 30_000);
    const ready = /ready (\{.*\})/.exec(child.output())?.[1] ?? "{}";
    assert.deepEqual(JSON.parse(ready), { SIGTERM: 0, SIGINT: 0, SIGUSR2: 0, SIGABRT: 0 }, "no matter.js signal listeners");
    child.child.kill(signal);
    const hung = new Promise((resolve) => {
      timer = setTimeout(resolve, 15_000, "hung");
    });
    const code = await Promise.race([child.exited, hung]);
    assert.equal(code, 0, `the process ended by itself after closing (output: ${child.output().slice(-500)})`);
    assert.match(child.output(), new RegExp(`signal ${signal}\\n`));
    assert.match(child.output(), /closed \{"exitCode":null\}/, "matter.js did not touch process.exitCode");
  } finally {
    clearTimeout(timer);
    if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill("SIGKILL");
  }
}
