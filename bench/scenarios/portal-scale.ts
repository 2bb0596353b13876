/**
 * Scenario 5 (issue 24): the portal on one database, with one instance or two, measured alike:
 * - sign-ups (`POST /api/register`, a new user and client IP each, one unlimited token) at rising rates, evenly
 *   paced and spread over the instances in turn, until the p99 of a sign-up exceeds 250 ms (or 1% fail): the last
 *   rate within that is the sustained sign-up rate;
 * - admin reads with 50 clients in a closed loop, spread over the instances in turn: the servers list (session and
 *   database only) and the token list (shared homeserver call).
 * The database is a fresh SQLite file (shared by both instances), or PostgreSQL (`databaseUrl`, emptied first).
 * Client-side round robin stands in for the reverse proxy, so the numbers are the portal's, not the proxy's.
 */
import { randomBytes } from "node:crypto";
import { Pool } from "undici";
import { onCleanup, runDriver } from "../lib/driver.ts";
import type { Runtime } from "../lib/paths.ts";
import { distribution } from "../lib/stats.ts";
import { Subject } from "../lib/subject.ts";
import { freeTcpPort, sleep, tempFolder } from "../lib/world.ts";
import { BENCH_HS_ADMIN_TOKEN, BENCH_SERVER_NAME } from "./homeserver-constants.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, adminClient, login } from "./portal-admin.ts";

export interface PortalScaleJob {
  runtime: Runtime;
  instances: number;
  /** PostgreSQL to use (emptied first); SQLite when absent. */
  databaseUrl?: string;
  /** Sign-up rates to try, per second over all instances, in order. */
  rates: number[];
  stepS: number;
  readConnections: number;
  readDurationS: number;
  verbose?: boolean;
}

export interface SignUpStep {
  ratePerS: number;
  sent: number;
  ok: number;
  failed: number;
  latencyMs: { p50: number; p99: number; max: number };
}

export interface ReadStats {
  requestsPerS: number;
  latencyMs: { p50: number; p99: number; max: number };
  failed: number;
}

export interface PortalScaleResult {
  database: "sqlite" | "postgres";
  instances: number;
  steps: SignUpStep[];
  /** The highest rate tried whose p99 stayed within 250 ms with under 1% failures (0 when none did). */
  sustainedSignUpsPerS: number;
  serversRead: ReadStats;
  tokenListRead: ReadStats;
}

const P99_LIMIT_MS = 250;
const password = "correct horse battery staple";

runDriver<PortalScaleJob, PortalScaleResult>(async (job) => {
  const hsProcess = new Subject({ source: "bench/scenarios/homeserver-child.ts", runtime: "tsx", env: {} });
  onCleanup(() => hsProcess.stop());
  const [hsLine] = await hsProcess.waitForLines<{ url: string }>((line) => typeof line.url === "string", 1, 60_000);
  const hsUrl = (hsLine as { line: { url: string } }).line.url;

  if (job.databaseUrl) await emptyPostgres(job.databaseUrl);
  const shared = await tempFolder("portal-scale");
  onCleanup(() => shared.remove());
  const secretKey = randomBytes(32).toString("hex");
  const bases: string[] = [];
  for (let i = 0; i < job.instances; i++) {
    // PostgreSQL: a data dir each (nothing may lean on a shared folder); SQLite: the one file in a shared dir.
    const data = job.databaseUrl ? await tempFolder(`portal-scale-${i}`) : shared;
    if (data !== shared) onCleanup(() => data.remove());
    const port = await freeTcpPort();
    const portal = new Subject({
      source: "portal/src/main.ts",
      runtime: job.runtime,
      env: {
        PORTAL_DATA_DIR: data.path,
        PORTAL_HOST: "127.0.0.1",
        PORTAL_PORT: String(port),
        PORTAL_SECRET_KEY: secretKey,
        PORTAL_ADMIN_EMAIL: ADMIN_EMAIL,
        PORTAL_ADMIN_PASSWORD: ADMIN_PASSWORD,
        PORTAL_TRUSTED_PROXIES: "127.0.0.1",
        PORTAL_LOG_LEVEL: "warn",
        PORTAL_LOG_FORMAT: "json",
        HA_URL: "http://homeassistant.invalid:8123",
        NODE_ENV: "production",
        ...(job.databaseUrl ? { PORTAL_DATABASE_URL: job.databaseUrl } : {}),
      },
      verbose: job.verbose,
    });
    onCleanup(() => portal.stop());
    // One after the other: the first migrates the database.
    await waitForHealth(`http://127.0.0.1:${port}`, portal);
    bases.push(`http://127.0.0.1:${port}`);
  }
  const pools = bases.map((base) => new Pool(base, { connections: 64, pipelining: 1 }));
  onCleanup(() => Promise.all(pools.map((pool) => pool.close())));

  const first = bases[0] as string;
  const cookie = await login(first);
  const admin = adminClient(first, cookie);
  const server = await admin("POST", "/api/admin/servers", {
    name: "Scale server",
    slug: "scale",
    serverName: BENCH_SERVER_NAME,
    internalUrl: hsUrl,
    publicUrl: `https://matrix.${BENCH_SERVER_NAME}`,
    adminToken: BENCH_HS_ADMIN_TOKEN,
  });
  const serverId = (server.server as { id: string }).id;
  await admin("PATCH", `/api/admin/servers/${serverId}`, { action: "enable" });
  await admin("POST", `/api/admin/tokens?serverId=${serverId}`, { token: "scale-open", uses_allowed: null });
  for (let i = 0; i < 49; i++)
    await admin("POST", `/api/admin/tokens?serverId=${serverId}`, { token: `scale-${i}`, uses_allowed: 5 });

  const steps: SignUpStep[] = [];
  let user = 0;
  for (const ratePerS of job.rates) {
    const step = await signUps(pools, ratePerS, job.stepS, () => user++);
    steps.push(step);
    if (step.latencyMs.p99 > P99_LIMIT_MS || step.failed > step.sent / 100) break;
    await sleep(500);
  }
  const within = steps.filter((s) => s.latencyMs.p99 <= P99_LIMIT_MS && s.failed <= s.sent / 100);
  const reads = (path: string) => closedLoop(pools, path, { cookie }, job.readConnections, job.readDurationS);
  return {
    database: job.databaseUrl ? "postgres" : "sqlite",
    instances: job.instances,
    steps,
    sustainedSignUpsPerS: Math.max(0, ...within.map((s) => s.ratePerS)),
    serversRead: await reads("/api/admin/servers"),
    tokenListRead: await reads(`/api/admin/tokens?serverId=${serverId}`),
  };
});

/** Sign-ups due at evenly spaced instants, instance after instance; latency from each one's due instant. */
async function signUps(pools: Pool[], ratePerS: number, durationS: number, next: () => number): Promise<SignUpStep> {
  const count = Math.max(1, Math.round(ratePerS * durationS));
  const started = performance.now();
  const latencies: number[] = [];
  let ok = 0;
  let failed = 0;
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / ratePerS;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const n = next();
    const pool = pools[i % pools.length] as Pool;
    inFlight.push(
      pool
        .request({
          method: "POST",
          path: "/api/register",
          headers: {
            "content-type": "application/json",
            "x-forwarded-for": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
          },
          body: JSON.stringify({ username: `scale${n}`, password, confirmPassword: password, token: "scale-open" }),
        })
        .then(async (response) => {
          await response.body.text();
          latencies.push(performance.now() - due);
          if (response.statusCode === 200) ok++;
          else failed++;
        })
        .catch(() => {
          latencies.push(performance.now() - due);
          failed++;
        }),
    );
  }
  await Promise.all(inFlight);
  const d = distribution(latencies);
  return { ratePerS, sent: count, ok, failed, latencyMs: { p50: d.p50, p99: d.p99, max: d.max } };
}

/** `connections` clients each sending the next GET as soon as the last is answered, instance after instance. */
async function closedLoop(
  pools: Pool[],
  path: string,
  headers: Record<string, string>,
  connections: number,
  durationS: number,
): Promise<ReadStats> {
  const latencies: number[] = [];
  let failed = 0;
  let turn = 0;
  const run = async (until: number, record: boolean) => {
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < until) {
          const pool = pools[turn++ % pools.length] as Pool;
          const began = performance.now();
          try {
            const response = await pool.request({ method: "GET", path, headers });
            await response.body.text();
            if (record) latencies.push(performance.now() - began);
            if (response.statusCode !== 200 && record) failed++;
          } catch {
            if (record) failed++;
          }
        }
      }),
    );
  };
  await run(performance.now() + 1000, false); // warm-up
  const began = performance.now();
  await run(began + durationS * 1000, true);
  const seconds = (performance.now() - began) / 1000;
  const d = distribution(latencies);
  return { requestsPerS: latencies.length / seconds, latencyMs: { p50: d.p50, p99: d.p99, max: d.max }, failed };
}

async function waitForHealth(base: string, portal: Subject): Promise<void> {
  const deadline = performance.now() + 120_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/api/health`)).status === 200) return;
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) throw new Error(`portal at ${base} did not start:\n${portal.stderrTail()}`);
    await sleep(200);
  }
}

/** Drops everything in the database's public schema: each configuration starts from an empty database. */
async function emptyPostgres(url: string): Promise<void> {
  // Loaded only for PostgreSQL runs: SQLite runs need no driver.
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("DROP SCHEMA public CASCADE; CREATE SCHEMA public");
  } finally {
    await client.end();
  }
}
