import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { memoryLogger } from "../../../lib/testing/fixtures.ts";
import {
  type HomeserverSimulator,
  type HomeserverSimulatorOptions,
  startHomeserverSimulator,
} from "../../../simulators/homeserver/index.ts";
import { loadPortalConfig } from "../../src/config.ts";
import type { DeploymentCapabilities } from "../../src/integrations/deployment-environment.ts";
import { type RunningPortal, startPortal } from "../../src/start-portal.ts";
import { PortalClient } from "./portal-client.ts";
import { dumpPostgres, freshPostgresUrl, onPostgres } from "./test-database.ts";

export const ADMIN_EMAIL = "root@portal.test";
export const ADMIN_PASSWORD = "admin-password-Xy7!q";
/** A fixed key, so that a second portal on the same data dir can read what the first stored. */
export const SECRET_KEY = Buffer.alloc(32, 0x5a).toString("base64");
/** Cheap scrypt for tests (the default cost is exercised by the password-hash unit tests). */
const TEST_HASHING = { ln: 10, r: 8, p: 1 };

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

/** A portal served on 127.0.0.1:0 with a memory logger and a movable clock. */
export interface TestPortal {
  readonly url: string;
  readonly dataDir: string;
  readonly running: RunningPortal;
  /** Every log line so far (JSON text). */
  logs(): string[];
  /** Milliseconds added to the portal's clock. */
  clockOffset: number;
  /** The Docker capabilities the portal sees (change them to test mode detection). */
  capabilities: DeploymentCapabilities;
  /** A new HTTP client; `ip` is sent as X-Forwarded-For (127.0.0.1 is a trusted proxy in tests). */
  client(options?: { ip?: string; origin?: string | null }): PortalClient;
  /** A client already logged in as the bootstrap admin. */
  admin(ip?: string): Promise<PortalClient>;
  stop(): Promise<void>;
}

export interface TestPortalOptions {
  dataDir?: string;
  env?: Record<string, string | undefined>;
  /** What the "environment" offers integrations; default: no Docker at all (guided mode). Mutable while running. */
  capabilities?: DeploymentCapabilities;
}

export const NO_DOCKER: DeploymentCapabilities = { dockerSocket: false, dockerCli: false, dockerCompose: false };
export const FULL_DOCKER: DeploymentCapabilities = { dockerSocket: true, dockerCli: true, dockerCompose: true };

/**
 * On a PostgreSQL run (test-database.ts) each data dir gets its own schema: a portal started again on the same data
 * dir finds its database again, as on SQLite.
 */
const schemaOfDataDir = new Map<string, Promise<string>>();

/** The PORTAL_DATABASE_URL of a test portal on `dataDir` when the suite runs on PostgreSQL, else undefined. */
export function databaseUrlFor(dataDir: string): Promise<string> | undefined {
  if (!onPostgres) return undefined;
  let url = schemaOfDataDir.get(dataDir);
  if (!url) {
    url = freshPostgresUrl();
    schemaOfDataDir.set(dataDir, url);
  }
  return url;
}

/**
 * Starts a portal like main.ts does, minus the process. The data dir is a fresh temp dir unless given; the database
 * is SQLite in it, or on a PostgreSQL run a schema of its own (unless `env` names PORTAL_DATABASE_URL).
 */
export async function startTestPortal(options: TestPortalOptions = {}): Promise<TestPortal> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "portal-test-"));
  const env: Record<string, string | undefined> = {
    PORTAL_DATABASE_URL: await databaseUrlFor(dataDir),
    PORTAL_DATA_DIR: dataDir,
    PORTAL_HOST: "127.0.0.1",
    PORTAL_PORT: "0",
    PORTAL_SECRET_KEY: SECRET_KEY,
    PORTAL_ADMIN_EMAIL: ADMIN_EMAIL,
    PORTAL_ADMIN_PASSWORD: ADMIN_PASSWORD,
    PORTAL_TRUSTED_PROXIES: "127.0.0.1",
    PORTAL_LOG_LEVEL: "debug",
    // Demo mode is on unless HA_URL is set (config.ts); tests opt into it with PORTAL_DEMO.
    HA_URL: "http://homeassistant.invalid:8123",
    ...options.env,
  };
  const config = loadPortalConfig(env, repoRoot);
  const { log, lines } = memoryLogger("debug");
  const portal: TestPortal = {
    url: "",
    dataDir,
    running: undefined as unknown as RunningPortal,
    logs: lines,
    clockOffset: 0,
    capabilities: { ...(options.capabilities ?? NO_DOCKER) },
    client: (clientOptions = {}) => new PortalClient(portal.url, clientOptions),
    async admin(ip = nextIp()) {
      const client = portal.client({ ip });
      await client.login(ADMIN_EMAIL, ADMIN_PASSWORD);
      return client;
    },
    stop: () => portal.running.stop("test"),
  };
  const running = await startPortal({
    config,
    log,
    version: "0.0.0-test",
    now: () => Date.now() + portal.clockOffset,
    passwordHashing: TEST_HASHING,
    deploymentCapabilities: async () => ({ ...portal.capabilities }),
  });
  Object.assign(portal, { running, url: `http://127.0.0.1:${running.http.port}` });
  return portal;
}

/**
 * What a test portal on `dataDir` stored, as bytes to search for secrets: the SQLite database with its WAL and
 * shared-memory files (recent writes wait in the WAL until a checkpoint), or on a PostgreSQL run every row of the
 * portal's schema as JSON text (column names included). `files` lists the SQLite files read (none on PostgreSQL).
 */
export async function storedBytes(dataDir: string): Promise<{ bytes: Buffer; files: string[] }> {
  const url = databaseUrlFor(dataDir);
  if (url) return { bytes: Buffer.from(await dumpPostgres(await url)), files: [] };
  const files = ["portal.sqlite", "portal.sqlite-wal", "portal.sqlite-shm"].map((name) => join(dataDir, name)).filter(existsSync);
  return { bytes: Buffer.concat(files.map((file) => readFileSync(file))), files };
}

/** Removes a temp data dir made by startTestPortal. */
export const removeDataDir = (dir: string) => rmSync(dir, { recursive: true, force: true });

/** A simulated Synapse with every rate limit off unless asked for. */
export function startSimulator(options: HomeserverSimulatorOptions = {}): Promise<HomeserverSimulator> {
  return startHomeserverSimulator({ rateLimit: false, ...options });
}

let slugCounter = 0;
let ipCounter = 0;

/** A fresh client IP per call (10.77.x.y), so that per-IP limits of one test never bleed into another. */
export function nextIp(): string {
  ipCounter += 1;
  return `10.77.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

/**
 * Creates a managed server for `hs` (enabled unless `enable: false`) and returns its record. `saveAnyway` stores it
 * without the check on save, for servers meant to be unreachable or misconfigured.
 */
export async function addServer(
  admin: PortalClient,
  hs: HomeserverSimulator,
  options: { enable?: boolean; fields?: Record<string, unknown>; saveAnyway?: boolean } = {},
): Promise<Record<string, unknown> & { id: string }> {
  slugCounter += 1;
  const created = await admin.post(`/api/admin/servers${options.saveAnyway ? "?saveAnyway=true" : ""}`, {
    name: `Test server ${slugCounter}`,
    slug: `test-${slugCounter}-${Date.now().toString(36)}`,
    serverName: hs.serverName,
    internalUrl: hs.url,
    publicUrl: `https://matrix.${hs.serverName}`,
    adminToken: hs.adminToken,
    ...options.fields,
  });
  if (created.status !== 201) throw new Error(`server creation failed: ${created.text}`);
  const server = created.body.server as Record<string, unknown> & { id: string };
  if (options.enable === false) return server;
  const enabled = await admin.patch(`/api/admin/servers/${server.id}`, { action: "enable" });
  if (enabled.status !== 200) throw new Error(`enable failed: ${enabled.text}`);
  return enabled.body.server as Record<string, unknown> & { id: string };
}

/** What most suites run against: a portal, a simulated homeserver and the bootstrap admin logged in. */
export interface PortalWithHomeserver {
  portal: TestPortal;
  hs: HomeserverSimulator;
  admin: PortalClient;
  /** The id of an enabled managed server for `hs` (empty with `server: false`). */
  serverId: string;
}

/**
 * Starts a portal and a homeserver simulator side by side, logs the admin in and, unless `server: false`, adds `hs`
 * as an enabled managed server: the one setup of the suites that test the portal against one homeserver (their
 * `before`; `stopPortalWithHomeserver` is their `after`).
 */
export async function startPortalWithHomeserver(options: {
  homeserver: HomeserverSimulatorOptions;
  portal?: TestPortalOptions;
  server?: boolean;
}): Promise<PortalWithHomeserver> {
  const [portal, hs] = await Promise.all([startTestPortal(options.portal), startSimulator(options.homeserver)]);
  const admin = await portal.admin();
  const serverId = options.server === false ? "" : (await addServer(admin, hs)).id;
  return { portal, hs, admin, serverId };
}

/** Stops what startPortalWithHomeserver started and removes the portal's data dir. */
export async function stopPortalWithHomeserver(portal: TestPortal, hs: HomeserverSimulator): Promise<void> {
  await portal.stop();
  await hs.close();
  removeDataDir(portal.dataDir);
}
