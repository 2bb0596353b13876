import type { Kysely } from "kysely";
import { textType, withRowid } from "../dialect.ts";
import type { Migration } from "../migrate.ts";

/** Local label, note and disabled flag of registration tokens that live on a homeserver. */
export const tokenMetadata: Migration = {
  name: "0003-token-metadata",
  // biome-ignore lint/suspicious/noExplicitAny: migrations work on the schema as it was
  async up(db: Kysely<any>) {
    const text = textType(db);
    await withRowid(db, db.schema.createTable("token_metadata"))
      .addColumn("server_id", text, (col) => col.notNull().references("servers.id").onDelete("cascade"))
      .addColumn("token", text, (col) => col.notNull())
      .addColumn("label", text)
      .addColumn("note", text)
      .addColumn("disabled", "integer", (col) => col.notNull().defaultTo(0))
      .addColumn("created_at", text, (col) => col.notNull())
      .addColumn("updated_at", text, (col) => col.notNull())
      .addPrimaryKeyConstraint("token_metadata_pk", ["server_id", "token"])
      .execute();
  },
};
