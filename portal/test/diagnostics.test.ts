import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { freePort } from "../../lib/testing/processes.ts";
import type { HomeserverSimulator } from "../../simulators/homeserver/index.ts";
import type { PortalClient } from "./support/portal-client.ts";
import { addServer, removeDataDir, startSimulator, startTestPortal, type TestPortal } from "./support/portal-harness.ts";
import { startRecordingServer } from "./support/recording-server.ts";

const BOOLEANS = [
  "homeserverReachable",
  "adminApiReachable",
  "tokenEndpointsAvailable",
  "registrationFlowAvailable",
  "registrationEnabled",
  "tokenRegistrationSupported",
  "msc3861Detected",
] as const;

describe("homeserver diagnostics", () => {
  let portal: TestPortal;
  let admin: PortalClient;
  const simulators: HomeserverSimulator[] = [];
  before(async () => {
    portal = await startTestPortal();
    admin = await portal.admin();
  });
  after(async () => {
    await portal.stop();
    await Promise.all(simulators.map((hs) => hs.close()));
    removeDataDir(portal.dataDir);
  });

  async function diagnose(options: Parameters<typeof startSimulator>[0], fields: Record<string, unknown> = {}) {
    const hs = await startSimulator(options);
    simulators.push(hs);
    const server = await addServer(admin, hs, { fields });
    const reply = await admin.get(`/api/admin/diagnostics?serverId=${server.id}`);
    assert.equal(reply.status, 200, reply.text);
    return { hs, server, diagnostics: reply.body.diagnostics };
  }

  const flags = (diagnostics: Record<string, unknown>) => Object.fromEntries(BOOLEANS.map((key) => [key, diagnostics[key]]));

  it("passes every check on a token-only Synapse, without storing or auditing (GET)", async () => {
    const { hs, server, diagnostics } = await diagnose({ serverName: "healthy.test" });
    assert.deepEqual(flags(diagnostics), {
      homeserverReachable: true,
      adminApiReachable: true,
      tokenEndpointsAvailable: true,
      registrationFlowAvailable: true,
      registrationEnabled: true,
      tokenRegistrationSupported: true,
      msc3861Detected: false,
    });
    assert.equal(diagnostics.serverName, "healthy.test");
    assert.deepEqual(diagnostics.errors, []);
    const paths = hs.requests().map((r) => `${r.method} ${r.path}`);
    for (const path of [
      "GET /_matrix/client/versions",
      "GET /_synapse/admin/v1/server_version",
      "GET /_synapse/admin/v1/registration_tokens",
      "POST /_matrix/client/v3/register",
      "GET /_matrix/client/v1/auth_metadata",
      "GET /_matrix/client/v3/account/whoami",
    ]) {
      assert.ok(paths.includes(path), path);
    }
    assert.deepEqual(hs.tokens(), [], "the probe consumed and created nothing");
    const stored = await admin.get(`/api/admin/servers/${server.id}`);
    assert.equal(stored.body.server.lastDiagAt, server.lastDiagAt, "the check on save stays the last stored diagnostics");
    const audit = await admin.get(`/api/admin/audit?serverId=${server.id}`);
    assert.equal(audit.body.logs[0].action, "server.enabled");
  });

  it("detects delegated authentication (MSC3861): token API gone, /register closed", async () => {
    const { diagnostics } = await diagnose({ delegatedAuth: true });
    assert.equal(diagnostics.msc3861Detected, true);
    assert.equal(diagnostics.homeserverReachable, true);
    assert.equal(diagnostics.adminApiReachable, true);
    assert.equal(diagnostics.tokenEndpointsAvailable, false);
    assert.equal(diagnostics.registrationFlowAvailable, false);
    assert.equal(diagnostics.registrationEnabled, false);
    assert.equal(diagnostics.tokenRegistrationSupported, false);
    assert.ok(diagnostics.errors.some((e: string) => /MSC3861/.test(e)));
    assert.ok(diagnostics.errors.some((e: string) => /registration-token admin API is not available \(M_UNRECOGNIZED\)/.test(e)));
  });

  it("reports disabled registration and open (token-less) registration", async () => {
    const closed = (await diagnose({ registrationEnabled: false })).diagnostics;
    assert.equal(closed.registrationEnabled, false);
    assert.equal(closed.registrationFlowAvailable, false);
    assert.equal(closed.tokenEndpointsAvailable, true);
    assert.ok(closed.errors.some((e: string) => /Registration is disabled on the homeserver/.test(e)));

    const open = (await diagnose({ registrationRequiresToken: false })).diagnostics;
    assert.equal(open.registrationEnabled, true);
    assert.equal(open.registrationFlowAvailable, true);
    assert.equal(open.tokenRegistrationSupported, false);
    assert.ok(open.errors.some((e: string) => /does not require a token/.test(e)));
  });

  it("reports a refused admin token and a server-name mismatch", async () => {
    const hs = await startSimulator({ serverName: "real.test" });
    simulators.push(hs);
    const server = await addServer(admin, hs, { fields: { serverName: "configured.test" }, saveAnyway: true });
    const mismatch = (await admin.get(`/api/admin/diagnostics?serverId=${server.id}`)).body.diagnostics;
    assert.equal(mismatch.serverName, "real.test");
    assert.ok(
      mismatch.errors.some((e: string) =>
        /belongs to @admin:real\.test, but this server is configured as configured\.test/.test(e),
      ),
    );

    await admin.patch(`/api/admin/servers/${server.id}`, { action: "rotate_token", adminToken: "syt_not_a_token" });
    const refused = (await admin.get(`/api/admin/diagnostics?serverId=${server.id}`)).body.diagnostics;
    assert.equal(refused.homeserverReachable, true);
    assert.equal(refused.adminApiReachable, false);
    assert.equal(refused.tokenEndpointsAvailable, false);
    assert.equal(refused.registrationFlowAvailable, true);
    assert.ok(refused.errors.some((e: string) => /refused the stored admin token \(M_UNKNOWN_TOKEN\)/.test(e)));
  });

  it("answers alike for a closed port, a silent one, a TLS failure and a web server that is no homeserver", async () => {
    const hs = await startSimulator();
    simulators.push(hs);
    const web = await startRecordingServer();
    // Accepts connections and never answers: a filtered or hung service.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const targets = {
        refused: `http://127.0.0.1:${await freePort()}`,
        silent: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
        tls: `https://${new URL(web.url).host}`,
        web: web.url,
      };
      const results = await Promise.all(
        Object.entries(targets).map(async ([kind, internalUrl]) => {
          const server = await addServer(admin, hs, { fields: { internalUrl }, saveAnyway: true });
          const started = Date.now();
          const reply = await admin.get(`/api/admin/diagnostics?serverId=${server.id}`);
          const { checkedAt, errors, ...rest } = reply.body.diagnostics;
          return { kind, internalUrl, ms: Date.now() - started, rest, errors: errors as string[] };
        }),
      );
      for (const result of results) {
        for (const key of BOOLEANS) assert.equal(result.rest[key], false, `${result.kind} ${key}`);
        assert.deepEqual(result.errors, [
          `Could not reach a Matrix homeserver at ${result.internalUrl}: check the URL, the network and that the homeserver runs (the cause is in the portal log)`,
        ]);
        assert.deepEqual(result.rest, results[0]?.rest, result.kind);
        assert.ok(result.ms >= 4_900, `${result.kind} answered after ${result.ms} ms: the time must not tell either`);
      }
      const logged = portal.logs().filter((line) => line.includes("no Matrix homeserver answered"));
      for (const cause of ["ECONNREFUSED", "timed out", "HTTP 404"]) {
        assert.ok(
          logged.some((line) => line.includes(cause)),
          `the cause ${cause} is in the log`,
        );
      }
    } finally {
      silent.closeAllConnections();
      silent.close();
      await web.close();
    }
  });

  it("needs a known serverId", async () => {
    assert.equal((await admin.get("/api/admin/diagnostics")).status, 400);
    const unknown = await admin.get("/api/admin/diagnostics?serverId=nope");
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.errorCode, "NOT_FOUND");
  });
});
