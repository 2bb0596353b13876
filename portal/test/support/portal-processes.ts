import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, type Spawned, spawnCaptured, waitForHttp } from "../../../lib/testing/processes.ts";
import { PortalClient } from "./portal-client.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, SECRET_KEY } from "./portal-harness.ts";
import { freshPostgresUrl, onPostgres } from "./test-database.ts";

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

/**
 * The database the multi-instance suites share (issue 24): on a PostgreSQL run of the suite (test-database.ts,
 * PORTAL_TEST_DATABASE_URL) a fresh schema all instances use, each instance with a data dir of its own, so nothing
 * can lean on a shared folder; otherwise one SQLite file in a data dir all instances share.
 */
export interface SharedDatabase {
  /** `postgres` or `sqlite`, for messages. */
  readonly kind: "postgres" | "sqlite";
  /** The data dir of the next instance. */
  dataDirFor(index: number): string;
  /** Variables that point an instance at the database. */
  readonly env: Record<string, string>;
}

/** Which kind of database this run of the suite uses (for test names, before anything is created). */
export const sharedDatabaseKind = (): SharedDatabase["kind"] => (onPostgres ? "postgres" : "sqlite");

export async function sharedDatabase(): Promise<SharedDatabase> {
  if (onPostgres) {
    const url = await freshPostgresUrl();
    return {
      kind: "postgres",
      dataDirFor: () => mkdtempSync(join(tmpdir(), "portal-instance-")),
      env: { PORTAL_DATABASE_URL: url },
    };
  }
  const shared = mkdtempSync(join(tmpdir(), "portal-shared-"));
  return { kind: "sqlite", dataDirFor: () => shared, env: {} };
}

/** One portal process (`node --import tsx portal/src/main.ts`), as production runs it. */
export interface PortalProcess {
  readonly name: string;
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  readonly process: Spawned;
  /** A client of this instance; `ip` is sent as X-Forwarded-For (127.0.0.1 is a trusted proxy here). */
  client(options?: { ip?: string }): PortalClient;
  /** SIGTERM and wait for the exit (a clean stop). */
  stop(): Promise<number>;
  /** SIGKILL: the process dies at once, mid-request if there is one. */
  kill(): Promise<number>;
}

/**
 * Starts a portal process on a port of its own and waits until it answers `/api/health`. The instances of one test
 * share the secret key and the administrator (PORTAL_SECRET_KEY, PORTAL_ADMIN_*), as a deployment's instances do.
 * Start the first alone: it migrates the database (a deployment runs `npm run portal:migrate` once instead).
 */
export async function startPortalProcess(options: {
  name: string;
  database: SharedDatabase;
  index: number;
  env?: Record<string, string>;
}): Promise<PortalProcess> {
  const port = await freePort();
  const dataDir = options.database.dataDirFor(options.index);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORTAL_DATA_DIR: dataDir,
    PORTAL_HOST: "127.0.0.1",
    PORTAL_PORT: String(port),
    PORTAL_SECRET_KEY: SECRET_KEY,
    PORTAL_ADMIN_EMAIL: ADMIN_EMAIL,
    PORTAL_ADMIN_PASSWORD: ADMIN_PASSWORD,
    PORTAL_TRUSTED_PROXIES: "127.0.0.1",
    PORTAL_LOG_LEVEL: "warn",
    HA_URL: "http://homeassistant.invalid:8123",
    ...options.database.env,
    ...options.env,
  };
  const spawned = spawnCaptured(process.execPath, ["--import", "tsx", "portal/src/main.ts"], { cwd: repoRoot, env });
  const url = `http://127.0.0.1:${port}`;
  try {
    await Promise.race([
      waitForHttp(`${url}/api/health`, 60_000),
      spawned.exited.then((code) => {
        throw new Error(`portal ${options.name} exited with ${code} before answering:\n${spawned.output()}`);
      }),
    ]);
  } catch (error) {
    spawned.child.kill("SIGKILL");
    throw error;
  }
  const end = async (signal: NodeJS.Signals) => {
    if (spawned.child.exitCode === null && spawned.child.signalCode === null) spawned.child.kill(signal);
    return spawned.exited;
  };
  return {
    name: options.name,
    url,
    port,
    dataDir,
    process: spawned,
    client: (clientOptions = {}) => new PortalClient(url, clientOptions),
    stop: () => end("SIGTERM"),
    kill: () => end("SIGKILL"),
  };
}

/** The same browser on another instance: the session cookie goes along (instances share key and database). */
export function sameBrowser(client: PortalClient, base: string, ip?: string): PortalClient {
  const other = new PortalClient(base, ip === undefined ? client.options : { ...client.options, ip });
  other.cookie = client.cookie;
  return other;
}
