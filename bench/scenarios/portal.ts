/**
 * Scenario 4: the portal (a fresh process, compiled like production) against the simulated homeserver (its own
 * process), loaded by autocannon from this process at fixed concurrency:
 * - admin token list (100 tokens, merged from the homeserver on every request), with the admin's session cookie;
 * - token validation (public, a new client IP per request: the per-IP limit would answer 429 otherwise);
 * - the whole sign-up flow as the public page runs it: resolve server → branding → username check → token
 *   validation → register (UIA on the homeserver), a new user and client IP per flow;
 * - `/api/health` as the floor of the HTTP stack (the "reference" column);
 * - the audit-log page with 1,000,000 rows, inserted straight into SQLite while the portal was stopped.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import type autocannon from "autocannon";
import Database from "better-sqlite3";
import { onCleanup, runDriver } from "../lib/driver.ts";
import type { Runtime } from "../lib/paths.ts";
import { distribution } from "../lib/stats.ts";
import { Subject } from "../lib/subject.ts";
import { freeTcpPort, tempFolder } from "../lib/world.ts";
import type { ProbeMemory } from "../sut-probe.ts";
import { BENCH_HS_ADMIN_TOKEN, BENCH_SERVER_NAME } from "./homeserver-constants.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, adminClient, login } from "./portal-admin.ts";
import { type LoadStats, type Pace, runCannon } from "./portal-load.ts";

export interface PortalJob {
  runtime: Runtime;
  connections: number;
  durationS: number;
  auditRows: number;
  auditSamples: number;
  tokens: number;
  /** The portal's log level; `debug` adds the time of every homeserver call to the log (diagnosis only). */
  logLevel?: string;
  /** Only these parts (profiling one of them): "audit", "health", "tokenList", "validation", "signUp". */
  only?: string[];
  /** Requests per second over all connections for the paced runs (token list and health). */
  pacedRate: number;
  cpuProfDir?: string;
  verbose?: boolean;
}

export interface PortalResult {
  tokenList: LoadStats;
  /** Paced evenly at `pacedRate` in total. */
  tokenListPaced: LoadStats;
  /** The same rate as autocannon paces it: each second's requests at once. */
  tokenListBursts: LoadStats;
  tokenValidation: LoadStats;
  signUp: LoadStats;
  health: LoadStats;
  /** `/api/health` paced like the paced token list (evenly, then in bursts): the floor of each. */
  healthPaced: LoadStats;
  healthBursts: LoadStats;
  tokenListItems: number;
  audit: {
    rows: number;
    insertS: number;
    firstPage: ReturnType<typeof distribution>;
    deepPage: ReturnType<typeof distribution>;
    serverPage: ReturnType<typeof distribution>;
    total: number;
  };
  memoryAfter: ProbeMemory;
}

runDriver<PortalJob, PortalResult>(
  async (job) => {
    const hsProcess = new Subject({ source: "bench/scenarios/homeserver-child.ts", runtime: "tsx", env: {} });
    onCleanup(() => hsProcess.stop());
    const [hsLine] = await hsProcess.waitForLines<{ url: string }>((line) => typeof line.url === "string", 1, 60_000);
    const hsUrl = (hsLine as { line: { url: string } }).line.url;

    const data = await tempFolder("portal");
    onCleanup(() => data.remove());
    const port = await freeTcpPort();
    const base = `http://127.0.0.1:${port}`;
    const env = {
      PORTAL_DATA_DIR: data.path,
      PORTAL_HOST: "127.0.0.1",
      PORTAL_PORT: String(port),
      PORTAL_SECRET_KEY: randomBytes(32).toString("hex"),
      PORTAL_ADMIN_EMAIL: ADMIN_EMAIL,
      PORTAL_ADMIN_PASSWORD: ADMIN_PASSWORD,
      PORTAL_TRUSTED_PROXIES: "127.0.0.1",
      PORTAL_LOG_LEVEL: job.logLevel ?? "info",
      // Readiness and timings are log lines read as JSON.
      PORTAL_LOG_FORMAT: "json",
      HA_URL: "http://homeassistant.invalid:8123",
      NODE_ENV: "production",
    };
    const startPortal = async (cpuProfDir?: string) => {
      const portal = new Subject({ source: "portal/src/main.ts", runtime: job.runtime, env, cpuProfDir, verbose: job.verbose });
      onCleanup(() => portal.stop());
      await portal.waitForLines((line) => typeof line.msg === "string" && line.msg.includes("started"), 1, 120_000);
      return portal;
    };

    // 1. Create the database (migrations run at start), stop, insert the audit rows while nothing else writes.
    const first = await startPortal();
    await first.stop();
    const insertStarted = performance.now();
    insertAuditRows(join(data.path, "portal.sqlite"), job.auditRows);
    const insertS = (performance.now() - insertStarted) / 1000;

    // 2. The measured portal.
    const portal = await startPortal(job.cpuProfDir);
    const cookie = await login(base);
    const admin = adminClient(base, cookie);
    const server = await admin("POST", "/api/admin/servers", {
      name: "Bench server",
      slug: "bench",
      serverName: BENCH_SERVER_NAME,
      internalUrl: hsUrl,
      publicUrl: `https://matrix.${BENCH_SERVER_NAME}`,
      adminToken: BENCH_HS_ADMIN_TOKEN,
    });
    const serverId = (server.server as { id: string }).id;
    await admin("PATCH", `/api/admin/servers/${serverId}`, { action: "enable" });
    for (let i = 0; i < job.tokens - 1; i++) {
      await admin("POST", `/api/admin/tokens?serverId=${serverId}`, {
        token: `bench-${i}`,
        uses_allowed: 10,
        label: `Bench ${i}`,
      });
    }
    await admin("POST", `/api/admin/tokens?serverId=${serverId}`, { token: "bench-open", uses_allowed: null, label: "open" });
    const listed = await admin("GET", `/api/admin/tokens?serverId=${serverId}`);
    const tokenListItems = (listed.tokens as unknown[]).length;

    const wanted = (part: string) => !job.only || job.only.includes(part);
    const skipped = undefined as unknown as LoadStats;
    // Audit first, on an idle portal: the latency of one admin looking at the log.
    const auditPath = (query: string) => `${base}/api/admin/audit?${query}`;
    const total = ((await (await fetch(auditPath("limit=50"), { headers: { cookie } })).json()) as { total: number }).total;
    const audit = wanted("audit")
      ? {
          rows: job.auditRows,
          insertS,
          total,
          firstPage: await timeRequests(job.auditSamples, () => auditPath("limit=50&offset=0"), cookie),
          deepPage: await timeRequests(job.auditSamples, () => auditPath(`limit=50&offset=${Math.floor(total / 2)}`), cookie),
          serverPage: await timeRequests(job.auditSamples, () => auditPath(`limit=50&serverId=${serverId}`), cookie),
        }
      : (undefined as unknown as PortalResult["audit"]);

    let ip = 0;
    const nextIp = () => {
      ip++;
      return `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}`;
    };
    const serverMs: number[] = [];
    const homeserverMs: number[] = [];
    portal.onLine((line) => {
      if (line.includes('"msg":"homeserver call"')) {
        const ms = (JSON.parse(line) as { ms?: number }).ms;
        if (typeof ms === "number") homeserverMs.push(ms);
        return;
      }
      if (!line.includes('"msg":"request"')) return;
      const ms = (JSON.parse(line) as { ms?: number }).ms;
      if (typeof ms === "number") serverMs.push(ms);
    });
    const cannon = async (requests: autocannon.Request[], flows?: () => number, pace?: Pace) => {
      const stats = await runCannon(
        base,
        job.connections,
        job.durationS,
        requests,
        {
          portal,
          homeserver: hsProcess,
          serverMs: () => serverMs,
          homeserverMs: () => homeserverMs,
          resetServerMs: () => {
            serverMs.splice(0);
            homeserverMs.splice(0);
          },
        },
        flows,
        pace,
      );
      return stats;
    };

    const healthRequest: autocannon.Request = { method: "GET", path: "/api/health" };
    const health = wanted("health") ? await cannon([healthRequest]) : skipped;
    const even: Pace = { kind: "even", ratePerS: job.pacedRate };
    const bursts: Pace = { kind: "bursts", ratePerS: job.pacedRate };
    const healthPaced = wanted("health") ? await cannon([healthRequest], undefined, even) : skipped;
    const healthBursts = wanted("health") ? await cannon([healthRequest], undefined, bursts) : skipped;
    const listRequest: autocannon.Request = {
      method: "GET",
      path: `/api/admin/tokens?serverId=${serverId}`,
      headers: { cookie },
    };
    const tokenList = wanted("tokenList") ? await cannon([listRequest]) : skipped;
    // The same 50 clients at a pace a busy admin panel could see (2 requests per second each), evenly spread: the
    // latency of a request that does not queue behind the others; then the same rate in one burst per second.
    const tokenListPaced = wanted("tokenList") ? await cannon([listRequest], undefined, even) : skipped;
    const tokenListBursts = wanted("tokenList") ? await cannon([listRequest], undefined, bursts) : skipped;
    const validateBody = JSON.stringify({ token: "bench-open", serverId });
    const tokenValidation = !wanted("validation")
      ? skipped
      : await cannon([
          {
            method: "POST",
            path: "/api/register/validate-token",
            setupRequest: (request) => ({
              ...request,
              headers: { "content-type": "application/json", "x-forwarded-for": nextIp(), origin: base },
              body: validateBody,
            }),
          },
        ]);
    let user = 0;
    let registered = 0;
    const flow = (context: Record<string, string>) => ({
      "x-forwarded-for": context.ip as string,
      origin: base,
      "content-type": "application/json",
    });
    const signUp = !wanted("signUp")
      ? skipped
      : await cannon(
          [
            {
              method: "GET",
              path: "/api/server/resolve",
              setupRequest: (request, context) => {
                const ctx = context as Record<string, string>;
                user++;
                ctx.ip = nextIp();
                ctx.user = `bench_user_${process.pid}_${user}`;
                return { ...request, headers: { "x-forwarded-for": ctx.ip } };
              },
            },
            {
              method: "GET",
              path: "/api/branding",
              setupRequest: (request, context) => ({ ...request, headers: flow(context as Record<string, string>) }),
            },
            {
              method: "GET",
              setupRequest: (request, context) => {
                const ctx = context as Record<string, string>;
                return {
                  ...request,
                  path: `/api/register/username-available?username=${ctx.user}&serverId=${serverId}`,
                  headers: flow(ctx),
                };
              },
            },
            {
              method: "POST",
              path: "/api/register/validate-token",
              setupRequest: (request, context) => ({
                ...request,
                headers: flow(context as Record<string, string>),
                body: validateBody,
              }),
            },
            {
              method: "POST",
              path: "/api/register",
              onResponse: (status, body) => {
                if (status === 200 && body.includes('"success":true')) registered++;
              },
              setupRequest: (request, context) => {
                const ctx = context as Record<string, string>;
                const body = JSON.stringify({
                  username: ctx.user,
                  password: "bench-password-123",
                  confirmPassword: "bench-password-123",
                  token: "bench-open",
                  serverId,
                });
                return { ...request, headers: flow(ctx), body };
              },
            },
          ],
          () => registered,
        );
    const memoryAfter = await portal.memory(true);
    return {
      tokenList,
      tokenListPaced,
      tokenListBursts,
      tokenValidation,
      signUp,
      health,
      healthPaced,
      healthBursts,
      tokenListItems,
      audit,
      memoryAfter,
    };
  },
  { matter: false },
);

function insertAuditRows(file: string, rows: number): void {
  const db = new Database(file);
  try {
    db.pragma("journal_mode = WAL");
    const insert = db.prepare(
      "INSERT INTO audit_log (server_id, action, actor, target, detail, ip, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    const actions = ["token.created", "token.updated", "server.updated", "bot.updated", "branding.updated", "token.disabled"];
    const start = Date.parse("2025-01-01T00:00:00Z");
    const fill = db.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) {
        insert.run(
          i % 3 === 0 ? null : `server-${i % 7}`,
          actions[i % actions.length],
          `admin${i % 5}@portal.test`,
          `target-${i}`,
          i % 2 === 0 ? JSON.stringify({ uses_allowed: i % 100 }) : null,
          `192.0.2.${i % 250}`,
          new Date(start + i * 30_000).toISOString(),
        );
      }
    });
    for (let from = 0; from < rows; from += 100_000) fill(from, Math.min(rows, from + 100_000));
  } finally {
    db.close();
  }
}

/** One client, one request after the other: the latency a single admin sees. */
async function timeRequests(samples: number, url: () => string, cookie: string) {
  const times: number[] = [];
  for (let i = 0; i < samples + 5; i++) {
    const started = performance.now();
    const response = await fetch(url(), { headers: { cookie } });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`audit page: ${response.status}`);
    if (i >= 5) times.push(performance.now() - started);
  }
  return distribution(times);
}
