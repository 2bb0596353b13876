import { type Kysely, sql } from "kysely";
import { textType, withRowid } from "../dialect.ts";
import type { Migration } from "../migrate.ts";

/** Portal administrators and their server-side sessions (revoked by deleting the row). */
export const usersAndSessions: Migration = {
  name: "0001-users-and-sessions",
  // biome-ignore lint/suspicious/noExplicitAny: migrations work on the schema as it was
  async up(db: Kysely<any>) {
    const text = textType(db);
    await withRowid(db, db.schema.createTable("users"))
      .addColumn("id", text, (col) => col.primaryKey())
      .addColumn("email", text, (col) => col.notNull().unique())
      .addColumn("name", text, (col) => col.notNull())
      .addColumn("role", text, (col) => col.notNull().check(sql`role IN ('global_admin')`))
      .addColumn("password_hash", text, (col) => col.notNull())
      .addColumn("created_at", text, (col) => col.notNull())
      .addColumn("updated_at", text, (col) => col.notNull())
      .execute();
    await withRowid(db, db.schema.createTable("sessions"))
      .addColumn("id_hash", text, (col) => col.primaryKey())
      .addColumn("user_id", text, (col) => col.notNull().references("users.id").onDelete("cascade"))
      .addColumn("created_at", text, (col) => col.notNull())
      .addColumn("expires_at", text, (col) => col.notNull())
      .addColumn("ip", text, (col) => col.notNull())
      .execute();
    await db.schema.createIndex("sessions_user").on("sessions").column("user_id").execute();
  },
};
