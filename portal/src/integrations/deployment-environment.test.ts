import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { canManage, systemCapabilityProbe } from "./deployment-environment.ts";

/**
 * The real probe against a fake environment: a temp dir with executable shell scripts standing in for `docker` and
 * `docker-compose`, and a unix socket opened by the test standing in for the daemon's.
 */
describe("systemCapabilityProbe", () => {
  let root: string;
  let socketPath: string;
  let socket: Server;
  /** `docker` with the Compose plugin: `docker compose version` answers like Compose v2 and exits 0. */
  let withCompose: string;
  /** `docker` without the plugin: `docker compose …` fails the way the real CLI does. */
  let withoutCompose: string;
  /** A standalone `docker-compose` and nothing else. */
  let standaloneCompose: string;
  /** Nothing Docker-related at all. */
  let empty: string;
  const missingSocket = () => join(root, "no-such.sock");

  function bin(name: string, files: Record<string, string>): string {
    const dir = join(root, name);
    mkdirSync(dir);
    for (const [file, script] of Object.entries(files)) {
      writeFileSync(join(dir, file), `#!/bin/sh\n${script}\n`);
      chmodSync(join(dir, file), 0o755);
    }
    return dir;
  }

  before(async () => {
    root = mkdtempSync(join(tmpdir(), "portal-probe-"));
    socketPath = join(root, "docker.sock");
    socket = createServer((connection) => connection.end());
    await new Promise<void>((resolve) => socket.listen(socketPath, resolve));
    withCompose = bin("with-compose", {
      docker: 'if [ "$1" = compose ] && [ "$2" = version ]; then echo "Docker Compose version v2.29.7"; exit 0; fi\nexit 1',
    });
    withoutCompose = bin("without-compose", {
      docker: "echo \"docker: '$1' is not a docker command.\" >&2\nexit 1",
    });
    standaloneCompose = bin("standalone-compose", { "docker-compose": 'echo "docker-compose version 1.29.2"' });
    empty = bin("empty", {});
  });
  after(async () => {
    await new Promise<void>((resolve) => socket.close(() => resolve()));
    rmSync(root, { recursive: true, force: true });
  });

  /** A probe over exactly this environment; the default socket points nowhere so the machine's own never counts. */
  const probe = (env: NodeJS.ProcessEnv) => systemCapabilityProbe({ env, defaultSocket: missingSocket(), cacheMs: 0 })();

  it("finds the socket from DOCKER_HOST, the CLI on PATH, and the Compose plugin by running it", async () => {
    const caps = await probe({ PATH: withCompose, DOCKER_HOST: `unix://${socketPath}` });
    assert.deepEqual(caps, { dockerSocket: true, dockerCli: true, dockerCompose: true });
    assert.equal(canManage(caps), true);
  });

  it("uses the default socket path when DOCKER_HOST names none", async () => {
    const caps = await systemCapabilityProbe({ env: { PATH: withCompose }, defaultSocket: socketPath, cacheMs: 0 })();
    assert.deepEqual(caps, { dockerSocket: true, dockerCli: true, dockerCompose: true });
  });

  it("reports no socket when DOCKER_HOST's path does not exist or is not a socket", async () => {
    const missing = await probe({ PATH: withCompose, DOCKER_HOST: `unix://${missingSocket()}` });
    assert.deepEqual(missing, { dockerSocket: false, dockerCli: true, dockerCompose: true });
    assert.equal(canManage(missing), false);
    const regularFile = join(root, "not-a-socket");
    writeFileSync(regularFile, "");
    const file = await probe({ PATH: withCompose, DOCKER_HOST: `unix://${regularFile}` });
    assert.equal(file.dockerSocket, false, "a regular file is no daemon socket");
  });

  it("reports no CLI and no Compose when PATH has neither", async () => {
    const caps = await probe({ PATH: empty, DOCKER_HOST: `unix://${socketPath}` });
    assert.deepEqual(caps, { dockerSocket: true, dockerCli: false, dockerCompose: false });
    assert.equal(canManage(caps), false);
    assert.deepEqual(await probe({ DOCKER_HOST: `unix://${socketPath}` }), caps, "no PATH at all");
  });

  it("reports no Compose when docker lacks the plugin, and finds a standalone docker-compose", async () => {
    const pluginless = await probe({ PATH: withoutCompose, DOCKER_HOST: `unix://${socketPath}` });
    assert.deepEqual(pluginless, { dockerSocket: true, dockerCli: true, dockerCompose: false });
    const standalone = await probe({
      PATH: [withoutCompose, standaloneCompose].join(":"),
      DOCKER_HOST: `unix://${socketPath}`,
    });
    assert.deepEqual(standalone, { dockerSocket: true, dockerCli: true, dockerCompose: true });
    assert.equal(canManage(standalone), true);
  });

  it("does not count a directory or a non-executable file named docker", async () => {
    const dir = join(root, "decoys");
    mkdirSync(join(dir, "docker"), { recursive: true });
    writeFileSync(join(dir, "docker-compose"), "#!/bin/sh\nexit 0\n", { mode: 0o644 });
    const caps = await probe({ PATH: dir, DOCKER_HOST: `unix://${socketPath}` });
    assert.deepEqual([caps.dockerCli, caps.dockerCompose], [false, false]);
  });

  it("caches an answer for cacheMs and asks again afterwards", async () => {
    const env: NodeJS.ProcessEnv = { PATH: empty, DOCKER_HOST: `unix://${socketPath}` };
    const cached = systemCapabilityProbe({ env, defaultSocket: missingSocket(), cacheMs: 60_000 });
    assert.equal((await cached()).dockerCli, false);
    env.PATH = withCompose;
    assert.equal((await cached()).dockerCli, false, "within the cache time the first answer stands");
    const fresh = systemCapabilityProbe({ env, defaultSocket: missingSocket(), cacheMs: 0 });
    assert.equal((await fresh()).dockerCli, true);
  });
});
