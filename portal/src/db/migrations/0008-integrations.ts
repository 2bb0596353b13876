import { type Kysely, sql } from "kysely";
import { serialKey, textType, withRowid } from "../dialect.ts";
import type { Migration } from "../migrate.ts";

/**
 * Installed integrations, their secrets (each value sealed by the secret box) and versioned configuration
 * snapshots. An appservice's `id` and the SHA-256 of its `as_token` are unique per server (Synapse refuses to start
 * with two registrations sharing either); the token itself is only stored sealed, as a secret.
 */
export const integrations: Migration = {
  name: "0008-integrations",
  // biome-ignore lint/suspicious/noExplicitAny: migrations work on the schema as it was
  async up(db: Kysely<any>) {
    const text = textType(db);
    await withRowid(db, db.schema.createTable("integrations"))
      .addColumn("id", text, (col) => col.primaryKey())
      .addColumn("server_id", text, (col) => col.notNull().references("servers.id").onDelete("cascade"))
      .addColumn("catalog_id", text, (col) => col.notNull())
      .addColumn("name", text, (col) => col.notNull())
      .addColumn("type", text, (col) => col.notNull())
      .addColumn("deployment_mode", text, (col) => col.notNull().check(sql`deployment_mode IN ('managed', 'guided')`))
      .addColumn("status", text, (col) => col.notNull().check(sql`status IN ('installed', 'active', 'inactive')`))
      .addColumn("enabled", "integer", (col) => col.notNull().defaultTo(0))
      .addColumn("config_version", "integer", (col) => col.notNull())
      .addColumn("config", text, (col) => col.notNull())
      .addColumn("appservice_id", text)
      .addColumn("sender_localpart", text)
      .addColumn("as_token_hash", text)
      .addColumn("files", text, (col) => col.notNull().defaultTo("[]"))
      .addColumn("last_health", text)
      .addColumn("last_health_at", text)
      .addColumn("created_at", text, (col) => col.notNull())
      .addColumn("updated_at", text, (col) => col.notNull())
      .addUniqueConstraint("integrations_server_catalog", ["server_id", "catalog_id"])
      .addUniqueConstraint("integrations_server_appservice", ["server_id", "appservice_id"])
      .addUniqueConstraint("integrations_server_as_token", ["server_id", "as_token_hash"])
      .execute();
    await withRowid(db, db.schema.createTable("integration_secrets"))
      .addColumn("id", text, (col) => col.primaryKey())
      .addColumn("integration_id", text, (col) => col.notNull().references("integrations.id").onDelete("cascade"))
      .addColumn("key", text, (col) => col.notNull())
      .addColumn("value_enc", text, (col) => col.notNull())
      .addColumn("generated", "integer", (col) => col.notNull().defaultTo(0))
      .addColumn("created_at", text, (col) => col.notNull())
      .addColumn("rotated_at", text)
      .addUniqueConstraint("integration_secrets_key", ["integration_id", "key"])
      .execute();
    await db.schema
      .createTable("integration_snapshots")
      .addColumn("id", "integer", serialKey(db))
      .addColumn("integration_id", text, (col) => col.notNull().references("integrations.id").onDelete("cascade"))
      .addColumn("version", "integer", (col) => col.notNull())
      .addColumn("config", text, (col) => col.notNull())
      .addColumn("reason", text, (col) => col.notNull())
      .addColumn("actor", text, (col) => col.notNull())
      .addColumn("created_at", text, (col) => col.notNull())
      .addUniqueConstraint("integration_snapshots_version", ["integration_id", "version"])
      .execute();
  },
};
