import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ConfigError } from "../../../lib/config-env.ts";
import { checkDatabaseUrl, databaseConfig, SQLITE_FILE } from "../config.ts";
import { CopyRefused, copyToPostgres } from "../db/copy-to-postgres.ts";
import { openPostgres } from "../db/postgres.ts";
import { SECRET_KEY_FILE } from "../secret-key.ts";

const USAGE =
  "usage: npm run portal:copy-to-postgres -- --from <portal data dir> --to postgres://user:password@host:5432/database";

/**
 * `npm run portal:copy-to-postgres -- --from <data dir> --to postgres://…`: moves a portal from its SQLite database
 * into an empty PostgreSQL database (docs/postgresql.md). `--to` defaults to PORTAL_DATABASE_URL. Secrets stay sealed:
 * the PostgreSQL portal needs the same secret key, and keeps using the data dir for its files.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { from: { type: "string" }, to: { type: "string" } }, strict: true });
  const from = values.from ?? process.env.PORTAL_DATA_DIR;
  const to = values.to ?? process.env.PORTAL_DATABASE_URL;
  if (!from || !to) throw new ConfigError(USAGE);
  const dataDir = resolve(from);
  const target = databaseConfig(checkDatabaseUrl(to), dataDir);
  if (target.kind !== "postgres") throw new ConfigError(USAGE);
  const db = openPostgres(target.url, { max: 1 });
  try {
    console.log(`Copying ${join(dataDir, SQLITE_FILE)} into ${target.redacted} (one transaction)…`);
    const report = await copyToPostgres(join(dataDir, SQLITE_FILE), db);
    for (const table of report.tables) console.log(`  ${table.name.padEnd(24)} ${table.rows} rows`);
    console.log("Copied; every table's row count checked.");
    console.log(
      `Secrets were copied sealed. Run the PostgreSQL portal with the same key: keep ${join(dataDir, SECRET_KEY_FILE)} in its`,
    );
    console.log("PORTAL_DATA_DIR (or set the same PORTAL_SECRET_KEY), and keep the data dir's files (assets, integrations).");
  } finally {
    await db.destroy();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    const plain = error instanceof ConfigError || error instanceof CopyRefused;
    const message = error instanceof Error ? (plain ? error.message : (error.stack ?? error.message)) : String(error);
    process.stderr.write(`portal:copy-to-postgres: ${message}\n`);
    process.exit(1);
  },
);
