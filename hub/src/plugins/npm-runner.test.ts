import assert from "node:assert/strict";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createNpmRunner, NPM_SAFETY_FLAGS, NpmError, npmEnvironment } from "./npm-runner.ts";

describe("npm runner", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "npm-runner-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  /** A stand-in for npm: a shell script. */
  const fakeNpm = async (body: string) => {
    const path = join(dir, `npm-${Math.random().toString(36).slice(2)}.sh`);
    await writeFile(path, `#!/bin/sh\n${body}\n`);
    await chmod(path, 0o755);
    return path;
  };

  it("runs with the safety flags in the prefix, and words npm's failure and a missing npm", async () => {
    const echo = createNpmRunner({ command: await fakeNpm('echo "$@"; pwd') });
    const output = await echo.run(["install", "--save"], dir, ["x"]);
    assert.equal(output, `install --save --prefix ${dir} ${NPM_SAFETY_FLAGS.join(" ")} -- x\n${dir}\n`);
    const failing = createNpmRunner({
      command: await fakeNpm('echo "npm error code E404" >&2; echo "npm error 404 Not Found - GET x" >&2; exit 1'),
    });
    await assert.rejects(failing.run(["install"], dir, ["x"]), (error: unknown) => {
      assert.ok(error instanceof NpmError);
      assert.equal(error.message, "npm install x failed: npm error code E404 | npm error 404 Not Found - GET x");
      return true;
    });
    const missing = createNpmRunner({ command: join(dir, "no-npm-here") });
    await assert.rejects(missing.run(["install", "x"], dir), /npm install failed: npm \(.*no-npm-here\) is not installed/);
  });

  it("puts package operands after --, and refuses one that looks like an option without running npm", async () => {
    const marker = join(dir, "npm-ran");
    const recording = createNpmRunner({ command: await fakeNpm(`echo "$@" > ${marker}`) });
    for (const operand of ["--registry=http://127.0.0.1:9/ file:/etc", "-g", " --foo"]) {
      await assert.rejects(recording.run(["install", "--save"], dir, [operand]), (error: unknown) => {
        assert.ok(error instanceof NpmError);
        assert.match(error.message, /is not a package/);
        return true;
      });
    }
    await assert.rejects(readFile(marker), { code: "ENOENT" }, "npm never ran");
  });

  it("ends running npm processes when closed and refuses new runs", async () => {
    const runner = createNpmRunner({ command: await fakeNpm("exec sleep 30") });
    const started = Date.now();
    const running = runner.run(["install", "slow"], dir);
    setTimeout(() => runner.close(), 100);
    await assert.rejects(running, /npm install failed: the hub is stopping/);
    assert.ok(Date.now() - started < 10_000, "not after the 30 s sleep");
    await assert.rejects(runner.run(["view", "x"], dir), /npm view failed: the hub is stopping/);
  });

  it("keeps the hub's secrets out of npm's environment, and npm's own variables in", async () => {
    const env = npmEnvironment({
      PATH: "/usr/bin",
      HOME: "/root",
      HA_TOKEN: "ha",
      SUPERVISOR_TOKEN: "sup",
      HUB_AUTH_PASSWORD: "pw",
      PORTAL_SECRET_KEY: "key",
      PORTAL_ADMIN_PASSWORD: "admin",
      npm_config_registry: "http://127.0.0.1:4873/",
      NPM_TOKEN: "for-a-private-registry",
    });
    assert.deepEqual(Object.keys(env).sort(), ["HOME", "NPM_TOKEN", "PATH", "npm_config_registry"]);
    process.env.HA_TOKEN_FOR_TEST = "must not reach npm";
    try {
      const printing = createNpmRunner({ command: await fakeNpm("env | grep -c HA_TOKEN_FOR_TEST || true") });
      assert.equal((await printing.run(["install"], dir, ["x"])).trim(), "0");
    } finally {
      delete process.env.HA_TOKEN_FOR_TEST;
    }
  });
});
