import type { Kysely } from "kysely";
import { serialKey, textType } from "../dialect.ts";
import type { Migration } from "../migrate.ts";

/**
 * The audit log. `server_id` deliberately has no foreign key: the record of a deleted server (including its
 * `server.deleted` entry) must outlive it. The integer id gives a stable reverse-chronological order.
 */
export const auditLog: Migration = {
  name: "0004-audit-log",
  // biome-ignore lint/suspicious/noExplicitAny: migrations work on the schema as it was
  async up(db: Kysely<any>) {
    const text = textType(db);
    await db.schema
      .createTable("audit_log")
      .addColumn("id", "integer", serialKey(db))
      .addColumn("server_id", text)
      .addColumn("action", text, (col) => col.notNull())
      .addColumn("actor", text, (col) => col.notNull())
      .addColumn("target", text, (col) => col.notNull())
      .addColumn("detail", text)
      .addColumn("ip", text, (col) => col.notNull())
      .addColumn("created_at", text, (col) => col.notNull())
      .execute();
    await db.schema.createIndex("audit_log_server").on("audit_log").columns(["server_id", "id"]).execute();
  },
};
