import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { HomeserverSimulator } from "../../simulators/homeserver/index.ts";
import { CopyRefused, copyToPostgres } from "../src/db/copy-to-postgres.ts";
import { openPostgres } from "../src/db/postgres.ts";
import type { PortalClient } from "./support/portal-client.ts";
import { addServer, removeDataDir, startSimulator, startTestPortal, type TestPortal } from "./support/portal-harness.ts";
import { freshPostgresUrl, onPostgres } from "./support/test-database.ts";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

/**
 * `npm run portal:copy-to-postgres`: a portal used on SQLite, copied into PostgreSQL, runs there with the same data
 * dir and key and shows the same servers, tokens, branding and audit log; its sealed admin token still opens.
 */
describe("copying a SQLite portal into PostgreSQL", { skip: !onPostgres && "needs PostgreSQL: npm run test:postgres" }, () => {
  let portal: TestPortal;
  let hs: HomeserverSimulator;
  let admin: PortalClient;
  let dataDir: string;
  let serverId: string;
  let url: string;
  const before_: Record<string, unknown> = {};

  before(async () => {
    hs = await startSimulator({ serverName: "copy.test" });
    // SQLite, whatever the suite runs on: an empty PORTAL_DATABASE_URL means the embedded database.
    portal = await startTestPortal({ env: { PORTAL_DATABASE_URL: "" } });
    dataDir = portal.dataDir;
    admin = await portal.admin();
    serverId = (await addServer(admin, hs)).id;
    const token = await admin.post(`/api/admin/tokens?serverId=${serverId}`, { token: "copied-token", label: "Copied" });
    assert.equal(token.status, 201, token.text);
    assert.equal((await admin.post("/api/admin/branding", { name: "Copied look" })).status, 201);
    before_.servers = (await admin.get("/api/admin/servers")).body;
    before_.branding = (await admin.get("/api/admin/branding")).body.profiles.map((p: { name: string }) => p.name);
    before_.audit = (await admin.get("/api/admin/audit?limit=200")).body;
    await portal.stop();
    url = await freshPostgresUrl();
  });
  after(async () => {
    await portal.stop();
    await hs.close();
    removeDataDir(dataDir);
  });

  it("copies every row in one transaction, checks the counts, and refuses a target that is not empty", async () => {
    const db = openPostgres(url);
    try {
      const report = await copyToPostgres(join(dataDir, "portal.sqlite"), db);
      const rows = Object.fromEntries(report.tables.map((table) => [table.name, table.rows]));
      assert.equal(rows.servers, 1);
      assert.equal(rows.users, 1);
      assert.equal(rows.token_metadata, 1);
      assert.ok((rows.audit_log ?? 0) >= 3);
      assert.ok(
        report.tables.findIndex((t) => t.name === "servers") < report.tables.findIndex((t) => t.name === "token_metadata"),
      );
      await assert.rejects(copyToPostgres(join(dataDir, "portal.sqlite"), db), (error: Error) => {
        assert.ok(error instanceof CopyRefused);
        assert.match(error.message, /not empty \(rows in .*servers/);
        return true;
      });
    } finally {
      await db.destroy();
    }
  });

  it("the command says why it refuses, in one line, without the password", () => {
    const withPassword = new URL(url);
    withPassword.password = "never-shown-pw";
    const run = spawnSync(
      process.execPath,
      ["--import", "tsx", "portal/src/tools/copy-to-postgres-main.ts", "--from", dataDir, "--to", withPassword.toString()],
      { cwd: repoRoot, encoding: "utf8" },
    );
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stderr, /^portal:copy-to-postgres: the PostgreSQL database is not empty/m);
    assert.ok(run.stdout.includes("postgres://portal:***@"), run.stdout);
    assert.equal(`${run.stdout}${run.stderr}`.includes("never-shown-pw"), false);
  });

  it("runs on PostgreSQL with the same data dir and key: same records, the sealed token opens, ids go on", async () => {
    portal = await startTestPortal({ dataDir, env: { PORTAL_DATABASE_URL: url } });
    admin = await portal.admin();
    assert.deepEqual((await admin.get("/api/admin/servers")).body, before_.servers);
    const profiles = (await admin.get("/api/admin/branding")).body.profiles.map((p: { name: string }) => p.name);
    assert.deepEqual(profiles, before_.branding);
    const audit = (await admin.get("/api/admin/audit?limit=200")).body;
    const old = before_.audit as { logs: { id: number }[]; total: number };
    // Newest first: the entries the copy carried follow today's login.
    assert.deepEqual(audit.logs.slice(-old.logs.length), old.logs);
    assert.ok(audit.logs[0].id > (old.logs[0]?.id ?? 0), "new entries continue the numbering");
    // Listing tokens calls the homeserver with the admin token, sealed on SQLite and opened here.
    const tokens = await admin.get(`/api/admin/tokens?serverId=${serverId}`);
    assert.equal(tokens.status, 200, tokens.text);
    assert.ok(
      tokens.body.tokens.some((t: { token: string; label: string }) => t.token === "copied-token" && t.label === "Copied"),
    );
  });
});
