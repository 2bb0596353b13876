import { type Kysely, type Selectable, sql, type Updateable } from "kysely";
import type { BotFeaturesTable, BotRoomsTable, BotsTable, Database } from "../db/schema.ts";

export type BotRow = Selectable<BotsTable>;
export type BotRoomRow = Selectable<BotRoomsTable>;
export type BotFeatureRow = Selectable<BotFeaturesTable>;

/** Bots, their room assignments and feature toggles. */
export class BotsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  listForServer(serverId: string): Promise<BotRow[]> {
    return this.db
      .selectFrom("bots")
      .selectAll()
      .where("server_id", "=", serverId)
      .orderBy("created_at", "asc")
      .orderBy(sql`rowid`, "asc")
      .execute();
  }

  find(id: string): Promise<BotRow | undefined> {
    return this.db.selectFrom("bots").selectAll().where("id", "=", id).executeTakeFirst();
  }

  async localpartTaken(serverId: string, localpart: string): Promise<boolean> {
    const row = await this.db
      .selectFrom("bots")
      .select("id")
      .where("server_id", "=", serverId)
      .where("localpart", "=", localpart)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Inserts the bot and its initial feature rows in one transaction. */
  async insert(row: BotRow, features: BotFeatureRow[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto("bots").values(row).execute();
      if (features.length > 0) await trx.insertInto("bot_features").values(features).execute();
    });
  }

  async update(id: string, changes: Omit<Updateable<BotsTable>, "id" | "server_id">): Promise<void> {
    await this.db.updateTable("bots").set(changes).where("id", "=", id).execute();
  }

  /** Deletes a bot only while it is inactive (one statement: a concurrent activation cannot slip in). */
  async deleteIfInactive(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom("bots").where("id", "=", id).where("status", "=", "inactive").executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  listRooms(botId: string): Promise<BotRoomRow[]> {
    return this.db
      .selectFrom("bot_rooms")
      .selectAll()
      .where("bot_id", "=", botId)
      .orderBy("created_at", "asc")
      .orderBy(sql`rowid`, "asc")
      .execute();
  }

  async insertRoom(row: BotRoomRow): Promise<void> {
    await this.db.insertInto("bot_rooms").values(row).execute();
  }

  /**
   * Removes an assignment and the room-scoped feature toggles of that room; the removed row, if any. `DELETE …
   * RETURNING`: of two concurrent removals only one gets the row (and audits it).
   */
  removeRoom(botId: string, assignmentId: string): Promise<BotRoomRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .deleteFrom("bot_rooms")
        .where("id", "=", assignmentId)
        .where("bot_id", "=", botId)
        .returningAll()
        .executeTakeFirst();
      if (!row) return undefined;
      await trx
        .deleteFrom("bot_features")
        .where("bot_id", "=", botId)
        .where("scope", "=", "room")
        .where("scope_id", "=", row.room_id)
        .execute();
      return row;
    });
  }

  listFeatures(botId: string): Promise<BotFeatureRow[]> {
    return this.db
      .selectFrom("bot_features")
      .selectAll()
      .where("bot_id", "=", botId)
      .orderBy("scope", "asc")
      .orderBy("scope_id", "asc")
      .orderBy(sql`rowid`, "asc")
      .execute();
  }

  /** Creates or changes the toggle for (bot, key, scope, room) and returns it. */
  async upsertFeature(row: BotFeatureRow): Promise<BotFeatureRow> {
    await this.db
      .insertInto("bot_features")
      .values(row)
      .onConflict((oc) =>
        oc
          .columns(["bot_id", "feature_key", "scope", "scope_id"])
          .doUpdateSet({ enabled: row.enabled, config: row.config, updated_at: row.updated_at }),
      )
      .execute();
    return this.db
      .selectFrom("bot_features")
      .selectAll()
      .where("bot_id", "=", row.bot_id)
      .where("feature_key", "=", row.feature_key)
      .where("scope", "=", row.scope)
      .where("scope_id", "=", row.scope_id)
      .executeTakeFirstOrThrow();
  }
}
