import type { Kysely } from "kysely";
import { ConfigError } from "../../../lib/config-env.ts";
import type { Logger } from "../../../lib/logger.ts";
import type { PortalConfig } from "../config.ts";
import { migrate, pendingMigrations } from "./migrate.ts";
import { MIGRATIONS } from "./migrations/index.ts";
import type { Database } from "./schema.ts";

/**
 * Brings the schema up to date (one transaction), or with PORTAL_MIGRATE=off only checks that it is: a deployment
 * that migrates explicitly (`npm run portal:migrate`) must not run on a schema older than its code.
 */
export async function prepareSchema(
  db: Kysely<Database>,
  config: Pick<PortalConfig, "database" | "migrateAtStart">,
  log: Logger,
): Promise<void> {
  const where = config.database.kind === "postgres" ? { database: config.database.redacted } : { database: config.database.path };
  if (!config.migrateAtStart) {
    const pending = await pendingMigrations(db, MIGRATIONS);
    if (pending.length > 0) {
      throw new ConfigError(
        `the database schema is behind this portal (pending migrations: ${pending.join(", ")}); PORTAL_MIGRATE=off, so run npm run portal:migrate first`,
      );
    }
    log.info({ ...where, kind: config.database.kind }, "database schema is up to date (PORTAL_MIGRATE=off)");
    return;
  }
  const applied = await migrate(db, MIGRATIONS);
  if (applied.length > 0) log.info({ ...where, migrations: applied }, "database migrated");
}
