import { type Kysely, type Selectable, sql, type Updateable } from "kysely";
import type { Database, ServersTable } from "../db/schema.ts";
import { GENERATIONS, KeptRows, WriteGeneration } from "../db/write-generation.ts";

export type ServerRow = Selectable<ServersTable>;
/** The lock of the writers that read and move the default flag. */
const DEFAULT_LOCK = "servers.default";

export type ServerChanges = Omit<Updateable<ServersTable>, "id" | "is_default" | "created_at">;

/**
 * Managed servers. The default flag only moves through `insertWithDefault` and `setDefault`, inside transactions
 * holding the `servers.default` lock: each reads the current default and writes on that basis, and on PostgreSQL two
 * such writers (from two instances) would otherwise both see no default, or the same one.
 *
 * Rows read by id are kept in memory: every admin and public request looks its server up, and the row (a dozen
 * columns with encrypted credentials) was a third of a cheap admin read's CPU. The cache is exact on every portal
 * instance of the database: every write to the table, here or in another repository sharing `writes` (branding
 * unlinks servers), moves the shared `servers` count in its transaction, and a kept row serves only while the count
 * has not moved (db/write-generation.ts). Callers get copies.
 */
export class ServersRepository {
  readonly #rows: KeptRows<ServerRow>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly writes = new WriteGeneration(db, GENERATIONS.servers),
  ) {
    this.#rows = new KeptRows(writes);
  }

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

  async find(id: string): Promise<ServerRow | undefined> {
    const row = await this.#rows.get(id, () => this.db.selectFrom("servers").selectAll().where("id", "=", id).executeTakeFirst());
    return row && { ...row };
  }

  findBy(column: "slug" | "public_domain", value: string): Promise<ServerRow | undefined> {
    return this.db.selectFrom("servers").selectAll().where(column, "=", value).executeTakeFirst();
  }

  findDefault(): Promise<ServerRow | undefined> {
    return this.db.selectFrom("servers").selectAll().where("is_default", "=", 1).executeTakeFirst();
  }

  /** Inserts a server; the first one ever (none exists) becomes the default, so there is always exactly one. */
  insertWithDefault(row: Omit<ServerRow, "is_default">): Promise<ServerRow> {
    return this.writes.around(async (trx) => {
      const existing = await trx.selectFrom("servers").select("id").limit(1).executeTakeFirst();
      const inserted = { ...row, is_default: existing ? 0 : 1 };
      await trx.insertInto("servers").values(inserted).execute();
      return inserted;
    }, DEFAULT_LOCK);
  }

  async update(id: string, changes: ServerChanges): Promise<ServerRow | undefined> {
    await this.writes.around((trx) => trx.updateTable("servers").set(changes).where("id", "=", id).execute());
    return this.find(id);
  }

  /**
   * Updates a server only if its internal URL is still `internalUrl` (one statement): a change checked against the
   * stored URL cannot land on a URL another request set meanwhile. Undefined when nothing was updated.
   */
  async updateAt(id: string, internalUrl: string, changes: ServerChanges): Promise<ServerRow | undefined> {
    const result = await this.writes.around((trx) =>
      trx.updateTable("servers").set(changes).where("id", "=", id).where("internal_url", "=", internalUrl).executeTakeFirst(),
    );
    return Number(result.numUpdatedRows) > 0 ? this.find(id) : undefined;
  }

  /** Makes `id` the one default server; returns the previous default's id. */
  setDefault(id: string, updatedAt: string): Promise<string | undefined> {
    return this.writes.around(async (trx) => {
      const previous = await trx.selectFrom("servers").select("id").where("is_default", "=", 1).executeTakeFirst();
      await trx.updateTable("servers").set({ is_default: 0, updated_at: updatedAt }).where("is_default", "=", 1).execute();
      await trx.updateTable("servers").set({ is_default: 1, updated_at: updatedAt }).where("id", "=", id).execute();
      return previous?.id;
    }, DEFAULT_LOCK);
  }

  /**
   * Deletes a server only if it is still disabled and not the default at the moment of deletion (one statement,
   * so a concurrent enable cannot slip in between the check and the delete). True when a row went.
   */
  async deleteIfRemovable(id: string): Promise<boolean> {
    const result = await this.writes.around((trx) =>
      trx.deleteFrom("servers").where("id", "=", id).where("enabled", "=", 0).where("is_default", "=", 0).executeTakeFirst(),
    );
    return Number(result.numDeletedRows) > 0;
  }
}
