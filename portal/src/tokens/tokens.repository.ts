import type { Kysely, Selectable } from "kysely";
import { BoundedMemo } from "../../../lib/bounded-memo.ts";
import type { Database, TokenMetadataTable } from "../db/schema.ts";
import { bumpGeneration, GENERATIONS, WriteGeneration } from "../db/write-generation.ts";

export type TokenMetadataRow = Selectable<TokenMetadataTable>;

/** Local metadata of registration tokens, keyed by (server, token string). */
export class TokensRepository {
  /** Each server's count of token changes, its read compiled once (at most 1,000 servers' kept; then afresh). */
  readonly #changes = new BoundedMemo<string, WriteGeneration>();

  constructor(private readonly db: Kysely<Database>) {}

  /**
   * How many times a server's tokens were changed through the portal, by any instance on the database: a list kept in
   * memory that was loaded at another count may be older than a change and is not used (tokens.service.ts).
   */
  changes(serverId: string): Promise<number> {
    const count = this.#changes.get(serverId, (id) => new WriteGeneration(this.db, GENERATIONS.tokens(id)));
    return count.current();
  }

  /** Counts a change of a server's tokens (made on the homeserver: a token write, a sign-up). */
  async changed(serverId: string): Promise<void> {
    await bumpGeneration(this.db, GENERATIONS.tokens(serverId));
  }

  listForServer(serverId: string): Promise<TokenMetadataRow[]> {
    return this.db.selectFrom("token_metadata").selectAll().where("server_id", "=", serverId).execute();
  }

  find(serverId: string, token: string): Promise<TokenMetadataRow | undefined> {
    return this.db
      .selectFrom("token_metadata")
      .selectAll()
      .where("server_id", "=", serverId)
      .where("token", "=", token)
      .executeTakeFirst();
  }

  /** Creates or changes the metadata row; fields left undefined keep their value (or their default on insert). */
  async upsert(
    serverId: string,
    token: string,
    changes: { label?: string | null; note?: string | null; disabled?: boolean },
    nowIso: string,
  ): Promise<void> {
    const set = {
      ...(changes.label === undefined ? {} : { label: changes.label }),
      ...(changes.note === undefined ? {} : { note: changes.note }),
      ...(changes.disabled === undefined ? {} : { disabled: changes.disabled ? 1 : 0 }),
      updated_at: nowIso,
    };
    await this.db
      .insertInto("token_metadata")
      .values({
        server_id: serverId,
        token,
        label: changes.label ?? null,
        note: changes.note ?? null,
        disabled: changes.disabled ? 1 : 0,
        created_at: nowIso,
        updated_at: nowIso,
      })
      .onConflict((oc) => oc.columns(["server_id", "token"]).doUpdateSet(set))
      .execute();
  }

  /** True when a row was removed. */
  async delete(serverId: string, token: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom("token_metadata")
      .where("server_id", "=", serverId)
      .where("token", "=", token)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Removes rows of these tokens not written since `beforeIso` (a row written later belongs to a newer token). */
  async deleteStale(serverId: string, tokens: string[], beforeIso: string): Promise<number> {
    let removed = 0;
    for (let i = 0; i < tokens.length; i += 500) {
      const result = await this.db
        .deleteFrom("token_metadata")
        .where("server_id", "=", serverId)
        .where("token", "in", tokens.slice(i, i + 500))
        .where("updated_at", "<", beforeIso)
        .executeTakeFirst();
      removed += Number(result.numDeletedRows);
    }
    return removed;
  }
}
