import type { Kysely, Selectable } from "kysely";
import type { Database, SessionsTable, UsersTable } from "../db/schema.ts";
import { KeptRows, WriteGeneration } from "../db/write-generation.ts";

export type UserRow = Selectable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;

/**
 * Portal administrators and their sessions. Every admin request looks its session and user up, so live sessions are
 * kept in memory once read. Only this class writes the `users` and `sessions` tables and every write empties the
 * cache, so it is exact: a logout, a password change (which ends the user's sessions) or a role change counts on
 * the very next request. Expiry is checked against the kept row on every lookup.
 */
export class AuthRepository {
  readonly #writes = new WriteGeneration();
  /** Live sessions with their user, by session id hash. */
  readonly #live = new KeptRows<{ session: SessionRow; user: UserRow }>(this.#writes);

  constructor(private readonly db: Kysely<Database>) {}

  findUserByEmail(email: string): Promise<UserRow | undefined> {
    return this.db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
  }

  findUserById(id: string): Promise<UserRow | undefined> {
    return this.db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
  }

  async countUsers(): Promise<number> {
    const row = await this.db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insertUser(row: UserRow): Promise<void> {
    await this.#writes.around(() => this.db.insertInto("users").values(row).execute());
  }

  /** Inserts the user unless one with the same e-mail exists (another instance starting at the same time). */
  async insertUserIfAbsent(row: UserRow): Promise<boolean> {
    const result = await this.#writes.around(() =>
      this.db
        .insertInto("users")
        .values(row)
        .onConflict((oc) => oc.column("email").doNothing())
        .executeTakeFirst(),
    );
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async updateUser(id: string, changes: Partial<Pick<UserRow, "password_hash" | "role" | "name" | "updated_at">>) {
    await this.#writes.around(() => this.db.updateTable("users").set(changes).where("id", "=", id).execute());
  }

  async insertSession(row: SessionRow): Promise<void> {
    await this.#writes.around(() => this.db.insertInto("sessions").values(row).execute());
  }

  /** A session that has not expired at `nowIso`, with its user. */
  async findLiveSession(idHash: string, nowIso: string): Promise<{ session: SessionRow; user: UserRow } | undefined> {
    const kept = this.#live.get(idHash);
    if (kept) return kept.session.expires_at > nowIso ? kept : undefined;
    return this.#live.read(idHash, async () => {
      const session = await this.db
        .selectFrom("sessions")
        .selectAll()
        .where("id_hash", "=", idHash)
        .where("expires_at", ">", nowIso)
        .executeTakeFirst();
      if (!session) return undefined;
      const user = await this.findUserById(session.user_id);
      return user && { session, user };
    });
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.#writes.around(() => this.db.deleteFrom("sessions").where("id_hash", "=", idHash).execute());
  }

  async deleteUserSessions(userId: string): Promise<void> {
    await this.#writes.around(() => this.db.deleteFrom("sessions").where("user_id", "=", userId).execute());
  }

  async deleteExpiredSessions(nowIso: string): Promise<void> {
    await this.#writes.around(() => this.db.deleteFrom("sessions").where("expires_at", "<=", nowIso).execute());
  }
}
