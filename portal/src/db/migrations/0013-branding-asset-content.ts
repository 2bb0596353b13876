import type { Kysely } from "kysely";
import { textType, withRowid } from "../dialect.ts";
import type { Migration } from "../migrate.ts";

/**
 * Branding asset bytes move into the database (issue 24): every portal instance serves what any of them stored, with
 * no shared folder, and a record never points at a file another machine holds. Base64 in a text column, because no
 * binary type is portable between SQLite (BLOB) and PostgreSQL (bytea); assets are 2 MB at most. Files of older
 * portals are moved in at start (branding/asset-store.ts).
 */
export const brandingAssetContent: Migration = {
  name: "0013-branding-asset-content",
  // biome-ignore lint/suspicious/noExplicitAny: migrations work on the schema as it was
  async up(db: Kysely<any>) {
    // Text compares byte by byte on both databases; PostgreSQL gets SQLite's `rowid` too (dialect.ts).
    const text = textType(db);
    await withRowid(db, db.schema.createTable("branding_asset_content"))
      .addColumn("asset_id", text, (col) => col.primaryKey().references("branding_assets.id").onDelete("cascade"))
      .addColumn("content", text, (col) => col.notNull())
      .execute();
  },
};
