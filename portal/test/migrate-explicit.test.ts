import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { databaseUrlFor, removeDataDir, startTestPortal } from "./support/portal-harness.ts";
import { onPostgres } from "./support/test-database.ts";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

/** `npm run portal:migrate` and PORTAL_MIGRATE=off, on the suite's database (SQLite, or PostgreSQL). */
describe(`explicit migrations (${onPostgres ? "PostgreSQL" : "SQLite"})`, () => {
  const dataDir = mkdtempSync(join(tmpdir(), "portal-migrate-"));
  after(() => removeDataDir(dataDir));

  const migrateCommand = async () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "portal/src/tools/migrate-main.ts"], {
      cwd: repoRoot,
      encoding: "utf8",
      env: { ...process.env, PORTAL_DATA_DIR: dataDir, PORTAL_DATABASE_URL: (await databaseUrlFor(dataDir)) ?? "" },
    });
    assert.equal(run.status, 0, run.stderr);
    return run.stdout;
  };

  it("with PORTAL_MIGRATE=off the portal refuses to start on a schema that is behind, and says what to run", async () => {
    await assert.rejects(
      startTestPortal({ dataDir, env: { PORTAL_MIGRATE: "off" } }),
      /the database schema is behind this portal \(pending migrations: 0001-users-and-sessions, .*\); PORTAL_MIGRATE=off, so run npm run portal:migrate first/,
    );
  });

  it("npm run portal:migrate applies the migrations once; then the portal starts without migrating", async () => {
    assert.match(await migrateCommand(), /^portal:migrate: applied 0001-users-and-sessions, .*0011-server-kind/m);
    assert.match(await migrateCommand(), /is up to date \(\d+ migrations\)/);
    const portal = await startTestPortal({ dataDir, env: { PORTAL_MIGRATE: "off" } });
    try {
      assert.ok(portal.logs().some((line) => line.includes("database schema is up to date (PORTAL_MIGRATE=off)")));
      assert.equal(
        portal.logs().some((line) => line.includes("database migrated")),
        false,
      );
      assert.equal((await (await portal.admin()).get("/api/admin/servers")).status, 200);
    } finally {
      await portal.stop();
    }
  });
});
