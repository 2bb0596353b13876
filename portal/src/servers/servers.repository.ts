import { type Kysely, type Selectable, sql, type Updateable } from "kysely";
import type { Database, ServersTable } from "../db/schema.ts";

export type ServerRow = Selectable<ServersTable>;
export type ServerChanges = Omit<Updateable<ServersTable>, "id" | "is_default" | "created_at">;

/** Managed servers. The default flag only moves through `insertWithDefault` and `setDefault`, inside transactions. */
export class ServersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The default server first, then by creation (insertion order breaks ties within one millisecond). */
  list(): Promise<ServerRow[]> {
    return this.db
      .selectFrom("servers")
      .selectAll()
      .orderBy("is_default", "desc")
      .orderBy("created_at", "asc")
      .orderBy(sql`rowid`, "asc")
      .execute();
  }

  find(id: string): Promise<ServerRow | undefined> {
    return this.db.selectFrom("servers").selectAll().where("id", "=", id).executeTakeFirst();
  }

  findBy(column: "slug" | "public_domain", value: string): Promise<ServerRow | undefined> {
    return this.db.selectFrom("servers").selectAll().where(column, "=", value).executeTakeFirst();
  }

  findDefault(): Promise<ServerRow | undefined> {
    return this.db.selectFrom("servers").selectAll().where("is_default", "=", 1).executeTakeFirst();
  }

  /** Inserts a server; the first one ever (none exists) becomes the default, so there is always exactly one. */
  insertWithDefault(row: Omit<ServerRow, "is_default">): Promise<ServerRow> {
    return this.db.transaction().execute(async (trx) => {
      const existing = await trx.selectFrom("servers").select("id").limit(1).executeTakeFirst();
      const inserted = { ...row, is_default: existing ? 0 : 1 };
      await trx.insertInto("servers").values(inserted).execute();
      return inserted;
    });
  }

  async update(id: string, changes: ServerChanges): Promise<ServerRow | undefined> {
    await this.db.updateTable("servers").set(changes).where("id", "=", id).execute();
    return this.find(id);
  }

  /** Makes `id` the one default server; returns the previous default's id. */
  setDefault(id: string, updatedAt: string): Promise<string | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const previous = await trx.selectFrom("servers").select("id").where("is_default", "=", 1).executeTakeFirst();
      await trx.updateTable("servers").set({ is_default: 0, updated_at: updatedAt }).where("is_default", "=", 1).execute();
      await trx.updateTable("servers").set({ is_default: 1, updated_at: updatedAt }).where("id", "=", id).execute();
      return previous?.id;
    });
  }

  /**
   * Deletes a server only if it is still disabled and not the default at the moment of deletion (one statement,
   * so a concurrent enable cannot slip in between the check and the delete). True when a row went.
   */
  async deleteIfRemovable(id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom("servers")
      .where("id", "=", id)
      .where("enabled", "=", 0)
      .where("is_default", "=", 0)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
