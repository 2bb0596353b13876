import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { after, before, describe, it } from "node:test";
import type { HomeserverSimulator } from "../../simulators/homeserver/index.ts";
import type { PortalClient } from "./support/portal-client.ts";
import {
  nextIp,
  removeDataDir,
  startPortalWithHomeserver,
  startTestPortal,
  stopPortalWithHomeserver,
  type TestPortal,
} from "./support/portal-harness.ts";

interface ParsedFamily {
  name: string;
  type: string;
  metrics: { value?: string; labels?: Record<string, string> }[];
}
// An independent parser of the exposition format, so prom-client does not check itself.
const parsePrometheus = createRequire(import.meta.url)("parse-prometheus-text-format") as (text: string) => ParsedFamily[];

const METRICS_TOKEN = "scrape-0123456789abcdef0123456789";
const PASSWORD = "correct horse battery";

describe("portal metrics (Prometheus) over HTTP", () => {
  let portal: TestPortal;
  let hs: HomeserverSimulator;
  let admin: PortalClient;
  let serverId: string;

  before(async () => {
    ({ portal, hs, admin, serverId } = await startPortalWithHomeserver({
      homeserver: { serverName: "metrics.test" },
      portal: { env: { PORTAL_METRICS_TOKEN: METRICS_TOKEN } },
    }));
  });
  after(() => stopPortalWithHomeserver(portal, hs));

  const scrape = async (authorization = `Bearer ${METRICS_TOKEN}`) =>
    fetch(`${portal.url}/api/metrics/prometheus`, { headers: { authorization } });
  const families = async () => {
    const response = await scrape();
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
    return new Map(parsePrometheus(await response.text()).map((family) => [family.name, family]));
  };
  const sample = (family: ParsedFamily | undefined, labels: Record<string, string>) =>
    family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  const value = (family: ParsedFamily | undefined, labels: Record<string, string> = {}) => Number(sample(family, labels)?.value);
  /** A histogram's count for one outcome, read from the text (the parser drops histogram labels). */
  const callCount = async (outcome: string) => {
    const text = await (await scrape()).text();
    const line = new RegExp(`^portal_homeserver_request_duration_seconds_count\\{outcome="${outcome}"\\} (\\d+)$`, "m");
    return Number(line.exec(text)?.[1] ?? 0);
  };

  it("answers only a scraper with the token: 401 with a Bearer challenge otherwise", async () => {
    for (const authorization of ["", "Bearer wrong-token-0123456789abcdef", `Basic ${btoa(`x:${METRICS_TOKEN}`)}`]) {
      const refused = await scrape(authorization);
      assert.equal(refused.status, 401, authorization);
      assert.equal(refused.headers.get("www-authenticate"), 'Bearer realm="portal metrics"');
      assert.deepEqual(await refused.json(), {
        success: false,
        error: "A valid metrics token is required (Authorization: Bearer)",
        errorCode: "UNAUTHORIZED",
      });
    }
    // An administrator's session opens nothing here either: the scrape token is the only key.
    const withSession = await admin.get("/api/metrics/prometheus");
    assert.equal(withSession.status, 401);
  });

  it("exposes process metrics and zeroed series before anything happened", async () => {
    const all = await families();
    assert.ok(value(all.get("portal_uptime_seconds")) > 0);
    assert.ok(value(all.get("portal_process_cpu_user_seconds_total")) >= 0);
    assert.ok(value(all.get("portal_nodejs_heap_size_used_bytes")) > 0);
    assert.equal(all.get("portal_signups_total")?.type, "COUNTER");
    assert.equal(value(all.get("portal_signups_total"), { result: "created" }), 0);
    assert.equal(value(all.get("portal_homeserver_errors_total"), { kind: "network" }), 0);
    for (const family of all.values()) {
      if (family.type === "GAUGE" && !/^portal_nodejs_active_\w+_total$/.test(family.name)) {
        assert.doesNotMatch(family.name, /_total$/, family.name);
      }
    }
  });

  it("counts token operations by result, sign-ups by result, and homeserver calls by outcome", async () => {
    const path = (suffix = "") => `/api/admin/tokens${suffix}?serverId=${serverId}`;
    assert.equal((await admin.post(path(), { token: "metrics-welcome", uses_allowed: 5 })).status, 201);
    assert.equal((await admin.post(path(), { token: "bad token with spaces" })).status, 400);
    assert.equal((await admin.put(path("/metrics-welcome"), { label: "Welcome" })).status, 200);
    assert.equal((await admin.post(path(), { token: "metrics-gone" })).status, 201);
    assert.equal((await admin.patch(path("/metrics-gone"))).status, 200);
    // Synapse enables a disabled token only through a new usage limit (PUT): PATCH {action: enable} is refused.
    assert.equal((await admin.patch(path("/metrics-gone"), { action: "enable" })).status, 400);
    assert.equal((await admin.post(path("/batch"), { count: 3, label: "Flyers" })).status, 201);
    assert.equal((await admin.delete(path("/metrics-gone"))).status, 200);
    assert.equal((await admin.get(path())).status, 200, "reading is no operation");
    // Without a session: refused before any handler, not an administrator's operation.
    assert.equal((await portal.client({ ip: nextIp() }).post(path(), { token: "anonymous" })).status, 401);

    const visitor = () => portal.client({ ip: nextIp() });
    const signUp = (username: string, token: string) =>
      visitor().post("/api/register", { username, password: PASSWORD, confirmPassword: PASSWORD, token });
    assert.equal((await signUp("metrics-alice", "metrics-welcome")).status, 200);
    assert.equal((await signUp("metrics-bob", "no-such-token")).status >= 400, true);

    const all = await families();
    const operations = all.get("portal_token_operations_total");
    assert.equal(value(operations, { operation: "create", result: "ok" }), 2);
    assert.equal(value(operations, { operation: "create", result: "refused" }), 1);
    assert.equal(value(operations, { operation: "update", result: "ok" }), 1);
    assert.equal(value(operations, { operation: "disable", result: "ok" }), 1);
    assert.equal(value(operations, { operation: "enable", result: "refused" }), 1);
    assert.equal(value(operations, { operation: "batch", result: "ok" }), 1, "a batch is one operation");
    assert.equal(value(operations, { operation: "delete", result: "ok" }), 1);
    const signUps = all.get("portal_signups_total");
    assert.equal(value(signUps, { result: "created" }), 1);
    assert.equal(value(signUps, { result: "refused" }), 1);
    assert.equal(value(signUps, { result: "failed" }), 0);

    assert.equal(all.get("portal_homeserver_request_duration_seconds")?.type, "HISTOGRAM");
    const answered = await callCount("2xx");
    assert.ok(answered >= 5, `homeserver calls answered: ${answered}`);
    // No label names a user, a token or a homeserver path.
    const text = await (await scrape()).text();
    for (const secret of ["metrics-welcome", "metrics-alice", "no-such-token", "registration_tokens", hs.adminToken]) {
      assert.ok(!text.includes(secret), secret);
    }
  });

  it("counts a homeserver that does not answer as an error", async () => {
    const before = value((await families()).get("portal_homeserver_errors_total"), { kind: "network" });
    await hs.close();
    const listed = await admin.get(`/api/admin/tokens?serverId=${serverId}`);
    assert.ok(listed.status >= 500, `${listed.status} ${listed.text}`);
    const all = await families();
    assert.equal(value(all.get("portal_homeserver_errors_total"), { kind: "network" }), before + 1);
    assert.ok((await callCount("network")) >= 1);
  });
});

describe("portal metrics without PORTAL_METRICS_TOKEN", () => {
  it("keeps the endpoint off (404, saying how to turn it on)", async () => {
    const portal = await startTestPortal();
    try {
      const response = await fetch(`${portal.url}/api/metrics/prometheus`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      assert.equal(response.status, 404);
      assert.match(((await response.json()) as { error: string }).error, /PORTAL_METRICS_TOKEN/);
    } finally {
      await portal.stop();
      removeDataDir(portal.dataDir);
    }
  });
});
