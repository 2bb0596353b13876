import { type Kysely, sql } from "kysely";
import { textType, withRowid } from "../dialect.ts";
import type { Migration } from "../migrate.ts";

/**
 * Branding profiles and their image assets. `settings` holds only the fields an admin set (JSON); unset fields take
 * the defaults when read. `published_settings` is the copy made by the last publish, which the public page shows.
 * At most one profile is active (partial unique index); at most one asset per purpose and profile. Asset files live
 * under the data dir with generated names (`storage_name`), never exposed.
 */
export const branding: Migration = {
  name: "0006-branding",
  // biome-ignore lint/suspicious/noExplicitAny: migrations work on the schema as it was
  async up(db: Kysely<any>) {
    const text = textType(db);
    await withRowid(db, db.schema.createTable("branding_profiles"))
      .addColumn("id", text, (col) => col.primaryKey())
      .addColumn("name", text, (col) => col.notNull())
      .addColumn("is_active", "integer", (col) => col.notNull().defaultTo(0))
      .addColumn("is_draft", "integer", (col) => col.notNull().defaultTo(1))
      .addColumn("version", "integer", (col) => col.notNull().defaultTo(0))
      .addColumn("settings", text, (col) => col.notNull().defaultTo("{}"))
      .addColumn("published_settings", text)
      .addColumn("published_at", text)
      .addColumn("created_at", text, (col) => col.notNull())
      .addColumn("updated_at", text, (col) => col.notNull())
      .execute();
    await sql`CREATE UNIQUE INDEX branding_one_active ON branding_profiles (is_active) WHERE is_active = 1`.execute(db);
    await withRowid(db, db.schema.createTable("branding_assets"))
      .addColumn("id", text, (col) => col.primaryKey())
      .addColumn("profile_id", text, (col) => col.notNull().references("branding_profiles.id").onDelete("cascade"))
      .addColumn("purpose", text, (col) => col.notNull().check(sql`purpose IN ('logo', 'favicon', 'hero', 'background')`))
      .addColumn("filename", text, (col) => col.notNull())
      .addColumn("mime_type", text, (col) => col.notNull())
      .addColumn("size", "integer", (col) => col.notNull())
      .addColumn("sha256", text, (col) => col.notNull())
      .addColumn("storage_name", text, (col) => col.notNull().unique())
      .addColumn("created_at", text, (col) => col.notNull())
      .addUniqueConstraint("branding_assets_one_per_purpose", ["profile_id", "purpose"])
      .execute();
  },
};
