import { findRepoRoot } from "../../../lib/app-info.ts";
import { ConfigError } from "../../../lib/config-env.ts";
import { loadPortalConfig } from "../config.ts";
import { openConfiguredDatabase } from "../db/database.ts";
import { migrate } from "../db/migrate.ts";
import { MIGRATIONS } from "../db/migrations/index.ts";

/**
 * `npm run portal:migrate`: applies the pending migrations to the database the environment names (PORTAL_DATABASE_URL,
 * else SQLite in PORTAL_DATA_DIR) in one transaction, and exits. For deployments that run the portal with
 * PORTAL_MIGRATE=off: migrate once, explicitly, before starting the new version's instances.
 */
async function main(): Promise<number> {
  const config = loadPortalConfig(process.env, findRepoRoot(import.meta.url));
  const where = config.database.kind === "postgres" ? config.database.redacted : config.database.path;
  const db = openConfiguredDatabase(config.database);
  try {
    const applied = await migrate(db, MIGRATIONS);
    console.log(
      applied.length > 0
        ? `portal:migrate: applied ${applied.join(", ")} to ${where}`
        : `portal:migrate: ${where} is up to date (${MIGRATIONS.length} migrations)`,
    );
    return 0;
  } finally {
    await db.destroy();
  }
}

main().then(
  (status) => process.exit(status),
  (error: unknown) => {
    // A configuration error or a refusal (a newer portal's database) is one line; anything else keeps its stack.
    const plain = error instanceof ConfigError || (error instanceof Error && /migrat/.test(error.message));
    process.stderr.write(
      `portal:migrate: ${plain ? (error as Error).message : error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exit(1);
  },
);
