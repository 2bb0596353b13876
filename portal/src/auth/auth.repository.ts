import type { Kysely, Selectable } from "kysely";
import type { Database, SessionsTable, UsersTable } from "../db/schema.ts";
import { GENERATIONS, KeptRows, WriteGeneration } from "../db/write-generation.ts";

export type UserRow = Selectable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;

/**
 * Portal administrators and their sessions. Every admin request looks its session and user up, so live sessions are
 * kept in memory once read. Only this class writes the `users` and `sessions` tables, and every write moves their
 * shared write count (`auth`, db/write-generation.ts) in its own transaction, so the cache is exact on every portal
 * instance of the database: a logout, a password change (which ends the user's sessions) or a role change made
 * through any instance counts on the very next request to any other. Expiry is checked against the kept row on
 * every lookup.
 */
export class AuthRepository {
  readonly #writes: WriteGeneration;
  /** Live sessions with their user, by session id hash. */
  readonly #live: KeptRows<{ session: SessionRow; user: UserRow }>;

  constructor(private readonly db: Kysely<Database>) {
    this.#writes = new WriteGeneration(db, GENERATIONS.auth);
    this.#live = new KeptRows(this.#writes);
  }

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
    // New rows move no count: the cache keeps only rows it found, never an absence.
    await this.db.insertInto("users").values(row).execute();
  }

  /** Inserts the user unless one with the same e-mail exists (another instance starting at the same time). */
  async insertUserIfAbsent(row: UserRow): Promise<boolean> {
    const result = await this.db
      .insertInto("users")
      .values(row)
      .onConflict((oc) => oc.column("email").doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async updateUser(id: string, changes: Partial<Pick<UserRow, "password_hash" | "role" | "name" | "updated_at">>) {
    await this.#writes.around((trx) => trx.updateTable("users").set(changes).where("id", "=", id).execute());
  }

  async insertSession(row: SessionRow): Promise<void> {
    await this.db.insertInto("sessions").values(row).execute();
  }

  /** A session that has not expired at `nowIso`, with its user. */
  async findLiveSession(idHash: string, nowIso: string): Promise<{ session: SessionRow; user: UserRow } | undefined> {
    const found = await this.#live.get(idHash, async () => {
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
    return found && found.session.expires_at > nowIso ? found : undefined;
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.#writes.around((trx) => trx.deleteFrom("sessions").where("id_hash", "=", idHash).execute());
  }

  async deleteUserSessions(userId: string): Promise<void> {
    await this.#writes.around((trx) => trx.deleteFrom("sessions").where("user_id", "=", userId).execute());
  }

  /** Removes expired sessions; moves the write count only when there were some (every login calls it). */
  async deleteExpiredSessions(nowIso: string): Promise<void> {
    const expired = await this.db
      .selectFrom("sessions")
      .select("id_hash")
      .where("expires_at", "<=", nowIso)
      .limit(1)
      .executeTakeFirst();
    if (!expired) return;
    await this.#writes.around((trx) => trx.deleteFrom("sessions").where("expires_at", "<=", nowIso).execute());
  }
}
