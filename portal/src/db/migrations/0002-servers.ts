import { type Kysely, sql } from "kysely";
import { textType, withRowid } from "../dialect.ts";
import type { Migration } from "../migrate.ts";

/**
 * Managed homeservers. `branding_profile_id` has no foreign key yet: branding profiles arrive with the next
 * migration list entries, and the service checks the reference then. A partial unique index allows at most one
 * default server; the service keeps it at exactly one whenever a server exists.
 */
export const servers: Migration = {
  name: "0002-servers",
  // biome-ignore lint/suspicious/noExplicitAny: migrations work on the schema as it was
  async up(db: Kysely<any>) {
    const text = textType(db);
    await withRowid(db, db.schema.createTable("servers"))
      .addColumn("id", text, (col) => col.primaryKey())
      .addColumn("name", text, (col) => col.notNull())
      .addColumn("slug", text, (col) => col.notNull().unique())
      .addColumn("server_name", text, (col) => col.notNull())
      .addColumn("internal_url", text, (col) => col.notNull())
      .addColumn("public_url", text, (col) => col.notNull())
      .addColumn("admin_token_enc", text, (col) => col.notNull())
      .addColumn("notes", text)
      .addColumn("public_domain", text, (col) => col.unique())
      .addColumn("route_prefix", text)
      .addColumn("branding_profile_id", text)
      .addColumn("registration_mode", text)
      .addColumn("managed_mode", text)
      .addColumn("status", text, (col) => col.notNull().check(sql`status IN ('draft', 'active', 'disabled')`))
      .addColumn("enabled", "integer", (col) => col.notNull().defaultTo(0))
      .addColumn("is_default", "integer", (col) => col.notNull().defaultTo(0))
      .addColumn("last_diag_at", text)
      .addColumn("last_diag_ok", "integer")
      .addColumn("token_rotated_at", text)
      .addColumn("created_at", text, (col) => col.notNull())
      .addColumn("updated_at", text, (col) => col.notNull())
      .execute();
    await sql`CREATE UNIQUE INDEX servers_one_default ON servers (is_default) WHERE is_default = 1`.execute(db);
  },
};
