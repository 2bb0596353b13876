// Runs a command against a throwaway PostgreSQL cluster: initdb in a temp dir, `postgres` on a free loopback port,
// the command with PORTAL_TEST_DATABASE_URL set (a superuser URL; the portal's tests make one schema per portal
// from it), then stop and delete. Exits with the command's status. `npm run test:postgres` runs the portal's shared
// suite this way; scripts/run-tests.mjs does when the binaries are there.
//
// Binaries: $PORTAL_POSTGRES_BIN, else the newest /usr/lib/postgresql/*/bin (Debian's `postgresql` package), else
// PATH. PostgreSQL refuses to run as root: as root the cluster belongs to the `postgres` user (or `nobody`), run
// through `setpriv` (util-linux). Root inside a user namespace (`unshare -r`, as scripts/isolate.sh does for a non-root user)
// cannot switch user: run `npm run test:postgres` as yourself there.
//
// Usage: node scripts/with-postgres.mjs [--] <command> [args...]
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** The directory holding `initdb` and `postgres`, or undefined. */
export function findPostgresBin(env = process.env) {
  if (env.PORTAL_POSTGRES_BIN) return existsSync(join(env.PORTAL_POSTGRES_BIN, "postgres")) ? env.PORTAL_POSTGRES_BIN : undefined;
  const root = "/usr/lib/postgresql";
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((name) => existsSync(join(root, name, "bin", "postgres")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(root, versions[0], "bin");
  }
  for (const dir of (env.PATH ?? "").split(":")) {
    if (dir && existsSync(join(dir, "postgres")) && existsSync(join(dir, "initdb"))) return dir;
  }
  return undefined;
}

/**
 * Why PostgreSQL cannot run here, or undefined when it can: no binaries, or root that cannot become another user
 * (inside a user namespace only uid 0 exists).
 */
export function postgresUnavailable(env = process.env) {
  if (!findPostgresBin(env)) return "no postgres binary (apt-get install postgresql)";
  if (process.getuid?.() === 0 && !realRoot()) {
    return "root inside a user namespace cannot run PostgreSQL (run npm run test:postgres as yourself)";
  }
  return undefined;
}

/** True for the real root (uid 0 mapped to uid 0), false inside a user namespace that maps someone else to 0. */
function realRoot() {
  try {
    const [inside, outside] = readFileSync("/proc/self/uid_map", "utf8").trim().split(/\s+/);
    return inside === "0" && outside === "0";
  } catch {
    return true;
  }
}

/** The user to run PostgreSQL as when we are root. */
function clusterUser() {
  for (const name of ["postgres", "nobody"]) {
    try {
      const uid = Number(execFileSync("id", ["-u", name], { encoding: "utf8" }).trim());
      const gid = Number(execFileSync("id", ["-g", name], { encoding: "utf8" }).trim());
      return { name, uid, gid };
    } catch {}
  }
  throw new Error("running as root, but there is neither a postgres nor a nobody user to run PostgreSQL as");
}

async function freePort() {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address();
  server.close();
  await once(server, "close");
  return port;
}

/**
 * Starts a cluster and returns its URL and a `stop()` that stops it and deletes its files. fsync and friends are off:
 * the data is thrown away, and the suite must run in minutes on two cores.
 */
export async function startPostgres({ log = (line) => console.log(line) } = {}) {
  const bin = findPostgresBin();
  if (!bin) throw new Error("no postgres binary (apt-get install postgresql)");
  const dir = mkdtempSync(join(tmpdir(), "portal-postgres-"));
  const user = process.getuid?.() === 0 ? clusterUser() : undefined;
  if (user) chownSync(dir, user.uid, user.gid);
  // setpriv execs the command itself (runuser would stay in between and not pass our SIGINT on).
  const run = (command, args) =>
    user
      ? ["setpriv", [`--reuid=${user.uid}`, `--regid=${user.gid}`, "--clear-groups", "--", command, ...args]]
      : [command, args];
  const data = join(dir, "data");
  const [initCommand, initArgs] = run(join(bin, "initdb"), [
    "-D",
    data,
    "-U",
    "portal",
    "--auth=trust",
    "--encoding=UTF8",
    "--locale=C.UTF-8",
    "--no-sync",
  ]);
  execFileSync(initCommand, initArgs, { stdio: ["ignore", "ignore", "inherit"] });
  let server;
  let port;
  for (let attempt = 0; attempt < 3 && !server; attempt++) {
    port = await freePort();
    const [command, args] = run(join(bin, "postgres"), [
      ...["-D", data, "-p", String(port), "-k", dir, "-c", "listen_addresses=127.0.0.1"],
      ...["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
      ...["-c", "max_connections=300", "-c", "shared_buffers=64MB", "-c", "log_min_messages=warning"],
    ]);
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
    let output = "";
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    if (await ready(bin, port, child, run)) server = child;
    else log(`postgres did not start on port ${port}:\n${output}`);
  }
  if (!server) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error("PostgreSQL did not start");
  }
  const url = `postgres://portal@127.0.0.1:${port}/postgres`;
  log(`PostgreSQL ${execFileSync(join(bin, "postgres"), ["--version"], { encoding: "utf8" }).trim()} on ${url} (${dir})`);
  return {
    url,
    async stop() {
      if (server.exitCode === null) {
        server.kill("SIGINT"); // fast shutdown
        await once(server, "exit");
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until the server answers (pg_isready), at most 30 s; false when it exited or never answered. */
async function ready(bin, port, child, run) {
  for (let i = 0; i < 300 && child.exitCode === null; i++) {
    try {
      const [command, args] = run(join(bin, "pg_isready"), ["-q", "-h", "127.0.0.1", "-p", String(port)]);
      execFileSync(command, args, { stdio: "ignore" });
      return true;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  if (child.exitCode === null) child.kill("SIGKILL");
  return false;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const args = process.argv.slice(2);
  if (args[0] === "--") args.shift();
  if (args.length === 0) {
    console.error("usage: node scripts/with-postgres.mjs [--] <command> [args...]");
    process.exit(2);
  }
  const why = postgresUnavailable();
  if (why) {
    console.error(`with-postgres: ${why}`);
    process.exit(1);
  }
  const cluster = await startPostgres();
  const child = spawn(args[0], args.slice(1), {
    stdio: "inherit",
    env: { ...process.env, PORTAL_TEST_DATABASE_URL: cluster.url },
  });
  const forward = (signal) => child.kill(signal);
  process.on("SIGINT", forward).on("SIGTERM", forward);
  const [status, signal] = await once(child, "exit");
  await cluster.stop();
  process.exit(status ?? (signal ? 1 : 0));
}
