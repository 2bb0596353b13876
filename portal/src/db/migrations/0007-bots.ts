import { type Kysely, sql } from "kysely";
import { textType, withRowid } from "../dialect.ts";
import type { Migration } from "../migrate.ts";

/**
 * Bots of a managed server, their room assignments and feature toggles. The access token is sealed by the secret
 * box (`access_token_enc`). A global feature toggle has `scope_id` '' (not NULL, so that the unique key holds).
 */
export const bots: Migration = {
  name: "0007-bots",
  // biome-ignore lint/suspicious/noExplicitAny: migrations work on the schema as it was
  async up(db: Kysely<any>) {
    const text = textType(db);
    await withRowid(db, db.schema.createTable("bots"))
      .addColumn("id", text, (col) => col.primaryKey())
      .addColumn("server_id", text, (col) => col.notNull().references("servers.id").onDelete("cascade"))
      .addColumn("template_id", text, (col) => col.notNull())
      .addColumn("display_name", text, (col) => col.notNull())
      .addColumn("localpart", text, (col) => col.notNull())
      .addColumn("avatar_url", text)
      .addColumn("config", text, (col) => col.notNull().defaultTo("{}"))
      .addColumn("status", text, (col) => col.notNull().check(sql`status IN ('inactive', 'active')`))
      .addColumn("enabled", "integer", (col) => col.notNull().defaultTo(0))
      .addColumn("access_token_enc", text)
      .addColumn("token_set_at", text)
      .addColumn("token_verified_at", text)
      .addColumn("profile_synced_at", text)
      .addColumn("created_at", text, (col) => col.notNull())
      .addColumn("updated_at", text, (col) => col.notNull())
      .addUniqueConstraint("bots_server_localpart", ["server_id", "localpart"])
      .execute();
    await withRowid(db, db.schema.createTable("bot_rooms"))
      .addColumn("id", text, (col) => col.primaryKey())
      .addColumn("bot_id", text, (col) => col.notNull().references("bots.id").onDelete("cascade"))
      .addColumn("room_id", text, (col) => col.notNull())
      .addColumn("room_alias", text)
      .addColumn("config", text, (col) => col.notNull().defaultTo("{}"))
      .addColumn("created_at", text, (col) => col.notNull())
      .addUniqueConstraint("bot_rooms_bot_room", ["bot_id", "room_id"])
      .execute();
    await withRowid(db, db.schema.createTable("bot_features"))
      .addColumn("id", text, (col) => col.primaryKey())
      .addColumn("bot_id", text, (col) => col.notNull().references("bots.id").onDelete("cascade"))
      .addColumn("feature_key", text, (col) => col.notNull())
      .addColumn("enabled", "integer", (col) => col.notNull())
      .addColumn("scope", text, (col) => col.notNull().check(sql`scope IN ('global', 'room')`))
      .addColumn("scope_id", text, (col) => col.notNull().defaultTo(""))
      .addColumn("config", text, (col) => col.notNull().defaultTo("{}"))
      .addColumn("updated_at", text, (col) => col.notNull())
      .addUniqueConstraint("bot_features_key_scope", ["bot_id", "feature_key", "scope", "scope_id"])
      .execute();
  },
};
