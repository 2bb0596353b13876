import type { Kysely } from "kysely";
import { serialKey, textType } from "../dialect.ts";
import type { Migration } from "../migrate.ts";

/** Accounts created through the portal, for the dashboard's `recentRegistrations`. */
export const registrations: Migration = {
  name: "0005-registrations",
  // biome-ignore lint/suspicious/noExplicitAny: migrations work on the schema as it was
  async up(db: Kysely<any>) {
    const text = textType(db);
    await db.schema
      .createTable("registrations")
      .addColumn("id", "integer", serialKey(db))
      .addColumn("server_id", text, (col) => col.notNull().references("servers.id").onDelete("cascade"))
      .addColumn("user_id", text, (col) => col.notNull())
      .addColumn("created_at", text, (col) => col.notNull())
      .execute();
    await db.schema.createIndex("registrations_server_time").on("registrations").columns(["server_id", "created_at"]).execute();
  },
};
