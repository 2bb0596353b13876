import assert from "node:assert/strict";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { DETAILS_MAX_CHARS } from "./npm-failure.ts";
import { createNpmRunner, NPM_SAFETY_FLAGS, NpmError, npmEnvironment } from "./npm-runner.ts";

/**
 * What npm 11 writes to stderr for each known failure (taken from real runs against the test registry, a closed
 * port and an unknown host), and the start of the sentence the hub makes of it.
 */
const FAILURES: [string, string, RegExp][] = [
  [
    "offline: unknown host",
    `npm http fetch GET https://registry.npmjs.org/x attempt 1 failed with ENOTFOUND
npm error code ENOTFOUND
npm error syscall getaddrinfo
npm error errno ENOTFOUND
npm error network request to https://registry.npmjs.org/x failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org
npm error network This is a problem related to network connectivity.`,
    /^The npm registry \(registry\.npmjs\.org\) cannot be reached \(ENOTFOUND\): the hub seems to be offline/,
  ],
  [
    "offline: no DNS answer",
    "npm error code EAI_AGAIN\nnpm error network request to https://registry.npmjs.org/x failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org",
    /^The npm registry \(registry\.npmjs\.org\) cannot be reached \(EAI_AGAIN\)/,
  ],
  [
    "registry refuses connections",
    `npm error errno ECONNREFUSED
npm error FetchError: request to http://127.0.0.1:9/x failed, reason: connect ECONNREFUSED 127.0.0.1:9
npm error     at ClientRequest.<anonymous> (/usr/lib/node_modules/npm/node_modules/minipass-fetch/lib/index.js:130:14)
npm error   code: 'ECONNREFUSED',`,
    /^The npm registry \(127\.0\.0\.1:9\) cannot be reached \(ECONNREFUSED\)/,
  ],
  [
    "registry times out",
    "npm error code ETIMEDOUT\nnpm error network request to https://registry.npmjs.org/x failed, reason: connect ETIMEDOUT 104.16.0.35:443",
    /cannot be reached \(ETIMEDOUT\)/,
  ],
  [
    "package not found",
    `npm error code E404
npm error 404 Not Found - GET http://127.0.0.1:4873/x - not found
npm error 404  The requested resource 'x@*' could not be found or you do not have permission to access it.`,
    /^There is no package named x on the npm registry\. Check the spelling/,
  ],
  [
    "no matching version",
    "npm error code ETARGET\nnpm error notarget No matching version found for x@9.9.9.",
    /^x has no published version matching "9\.9\.9"\. Check the version, or leave it out/,
  ],
  [
    "no matching version (npm view)",
    "npm error code E404\nnpm error 404 No match found for version 9.9.9",
    /^x has no published version matching "9\.9\.9"/,
  ],
  [
    "integrity",
    "npm error code EINTEGRITY\nnpm error sha512-abc integrity checksum failed when using sha512: wanted sha512-abc but got sha512-def.",
    /^The download of x@9\.9\.9 does not match its checksum \(EINTEGRITY\)/,
  ],
  [
    "disk full",
    "npm error code ENOSPC\nnpm error syscall write\nnpm error nospc ENOSPC: no space left on device, write",
    /^The disk of the hub's data folder is full \(ENOSPC\)/,
  ],
  [
    "permission",
    "npm error code EACCES\nnpm error syscall mkdir\nnpm error path /data/plugin-packages/node_modules/x\nnpm error errno -13",
    /^npm may not write a file it needs \(EACCES\): the hub's data folder/,
  ],
  [
    "registry error",
    "npm error code E503\nnpm error 503 Service Unavailable - GET http://127.0.0.1:4873/x",
    /^The npm registry answered with an error \(503\)/,
  ],
  [
    "anything else",
    "npm error code EWHATEVER\nnpm error something new",
    /^npm install x@9\.9\.9 failed: npm error code EWHATEVER \| npm error something new$/,
  ],
];

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

  it("runs with the safety flags in the prefix, and words a missing npm", async () => {
    const echo = createNpmRunner({ command: await fakeNpm('echo "$@"; pwd') });
    const output = await echo.run(["install", "--save"], dir, ["x"]);
    assert.equal(output, `install --save --prefix ${dir} ${NPM_SAFETY_FLAGS.join(" ")} --loglevel=error -- x\n${dir}\n`);
    const missing = createNpmRunner({ command: join(dir, "no-npm-here") });
    await assert.rejects(missing.run(["install", "x"], dir), /npm install failed: npm \(.*no-npm-here\) is not installed/);
  });

  it("turns each known npm failure into a sentence, with npm's output as details", async () => {
    for (const [what, stderr, sentence] of FAILURES) {
      await writeFile(
        join(dir, "stderr.txt"),
        `${stderr}\nnpm error A complete log of this run can be found in: /root/.npm/_logs/x.log\n`,
      );
      const failing = createNpmRunner({ command: await fakeNpm(`cat ${join(dir, "stderr.txt")} >&2; exit 1`) });
      await assert.rejects(failing.run(["install", "--save"], dir, ["x@9.9.9"]), (error: unknown) => {
        assert.ok(error instanceof NpmError, what);
        assert.match(error.message, sentence, what);
        assert.ok(error.details?.includes(stderr.split("\n")[0] ?? ""), `${what}: npm's own lines are the details`);
        return true;
      });
    }
  });

  it("keeps details bounded and free of credentials", async () => {
    const secretLines = [
      "npm verbose config //registry.example.com/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789",
      "npm verbose config _auth = dXNlcjpzZWNyZXQ=",
      "npm http fetch GET 401 https://alice:hunter22@registry.example.com/x",
      "npm verbose headers authorization: Bearer abcdef0123456789",
      "npm verbose env NPM_TOKEN=my-private-token",
    ];
    const noise = Array.from({ length: 2000 }, (_, i) => `npm silly line ${i} ${"x".repeat(40)}`);
    await writeFile(
      join(dir, "stderr.txt"),
      [...noise, ...secretLines, "npm error code E401", "npm error 401 Unauthorized"].join("\n"),
    );
    const failing = createNpmRunner({ command: await fakeNpm(`cat ${join(dir, "stderr.txt")} >&2; exit 1`) });
    await assert.rejects(failing.run(["install"], dir, ["@private/x"]), (error: unknown) => {
      assert.ok(error instanceof NpmError);
      assert.match(error.message, /^The npm registry refused access to @private\/x \(401\)/);
      const details = error.details ?? "";
      assert.ok(details.length <= DETAILS_MAX_CHARS + 64, `bounded: ${details.length}`);
      assert.match(
        details,
        /^npm error code E401\nnpm error 401 Unauthorized\n\nnpm's whole output:\n… \(earlier output left out\)\n/,
      );
      assert.match(details, /npm error 401 Unauthorized$/);
      for (const secret of ["npm_abcdefghijklmnop", "dXNlcjpzZWNyZXQ", "hunter22", "abcdef0123456789", "my-private-token"]) {
        assert.ok(!details.includes(secret), `${secret} is not in the details`);
      }
      assert.match(details, /_authToken=\*\*\*/);
      assert.match(details, /https:\/\/\*\*\*@registry\.example\.com/);
      return true;
    });
  });

  it("streams npm's lines in order while it runs, at silly level", async () => {
    const lines: string[] = [];
    const printing = createNpmRunner({
      command: await fakeNpm('for i in 1 2 3; do echo "npm silly step $i" >&2; done; echo "$@" | grep -o -- "--loglevel=[a-z]*"'),
    });
    const output = await printing.run(["install"], dir, ["x"], { onLine: (line) => lines.push(line) });
    // stderr's lines in their order; stdout's line may come between them (two pipes, read as each has data).
    assert.deepEqual(
      lines.filter((line) => line.startsWith("npm silly")),
      ["npm silly step 1", "npm silly step 2", "npm silly step 3"],
    );
    assert.equal(output.trim(), "--loglevel=silly");
  });

  it("gives npm fail-fast network settings unless its environment sets them", async () => {
    const printing = createNpmRunner({
      command: await fakeNpm("env | grep -i '^npm_config_fetch' | sort"),
      env: { npm_config_fetch_timeout: "5000" },
    });
    assert.deepEqual((await printing.run(["install"], dir, ["x"])).trim().split("\n"), [
      "npm_config_fetch_retries=1",
      "npm_config_fetch_retry_maxtimeout=3000",
      "npm_config_fetch_retry_mintimeout=1000",
      "npm_config_fetch_timeout=5000",
    ]);
  });

  it("cancels: ends npm's whole process group and says so", async () => {
    const marker = join(dir, "child-alive");
    // npm's stand-in starts a child of its own that would write the marker after 2 s: a cancel must end it too.
    const runner = createNpmRunner({
      command: await fakeNpm(`(sleep 2; touch ${marker}) & echo "npm silly idealTree" >&2; sleep 30`),
      killGraceMs: 500,
    });
    const cancel = new AbortController();
    const running = runner.run(["install"], dir, ["slow"], {
      signal: cancel.signal,
      onLine: () => cancel.abort(),
    });
    await assert.rejects(running, (error: unknown) => {
      assert.ok(error instanceof NpmError);
      assert.equal(error.code, "cancelled");
      assert.equal(error.message, "The installation of slow was cancelled. Nothing was installed.");
      return true;
    });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await assert.rejects(readFile(marker), { code: "ENOENT" }, "npm's child was ended with it");
    await assert.rejects(runner.run(["install"], dir, ["x"], { signal: cancel.signal }), /was cancelled/);
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
    await assert.rejects(running, /npm install was stopped: the hub is stopping/);
    assert.ok(Date.now() - started < 10_000, "not after the 30 s sleep");
    await assert.rejects(runner.run(["view", "x"], dir), /npm view was stopped: the hub is stopping/);
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
