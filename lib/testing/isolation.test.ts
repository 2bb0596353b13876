import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { assertNetworkIsolated } from "./isolation.ts";
import { spawnCaptured } from "./processes.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));

describe("network isolation guard", () => {
  it("passes inside the test run's private network namespace", () => {
    assert.doesNotThrow(() => assertNetworkIsolated());
  });

  it("refuses when the isolation marker is missing", async () => {
    const env = { ...process.env };
    delete env.NETNS_ISOLATED;
    const run = spawnCaptured(
      process.execPath,
      ["--import", "tsx", "-e", 'import("./lib/testing/isolation.ts").then((m) => m.assertNetworkIsolated())'],
      { cwd: root, env },
    );
    assert.notEqual(await run.exited, 0);
    assert.match(run.output(), /refusing to start a Matter node outside a private network namespace/);
  });
});
