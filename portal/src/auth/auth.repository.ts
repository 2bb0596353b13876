import type { Kysely, Selectable } from "kysely";
import type { Database, SessionsTable, UsersTable } from "../db/schema.ts";
import { WriteGeneration } from "../db/write-generation.ts";

export type UserRow = Selectable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;

/** Sessions kept in memory at most (an admin console has a handful; the bound only stops a flood of logins). */
const MAX_CACHED_SESSIONS = 1_000;

/**
 * Portal administrators and their sessions. Every admin request looks its session and user up, so live sessions are
 * kept in memory once read. Only this class writes the `users` and `sessions` tables and every write empties the
 * cache, so it is exact: a logout, a password change (which ends the user's sessions) or a role change counts on
 * the very next request. Expiry is checked against the kept row on every lookup.
 */
export class AuthRepository {
  readonly #live = new Map<string, { session: SessionRow; user: UserRow }>();
  /** A lookup keeps what it read only if no write began or ended meanwhile. */
  readonly #writes = new WriteGeneration();

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
    await this.#written(this.db.insertInto("users").values(row).execute());
  }

  async updateUser(id: string, changes: Partial<Pick<UserRow, "password_hash" | "role" | "name" | "updated_at">>) {
    await this.#written(this.db.updateTable("users").set(changes).where("id", "=", id).execute());
  }

  async insertSession(row: SessionRow): Promise<void> {
    await this.#written(this.db.insertInto("sessions").values(row).execute());
  }

  /** A session that has not expired at `nowIso`, with its user. */
  async findLiveSession(idHash: string, nowIso: string): Promise<{ session: SessionRow; user: UserRow } | undefined> {
    const kept = this.#live.get(idHash);
    if (kept) return kept.session.expires_at > nowIso ? kept : undefined;
    const writesBefore = this.#writes.current;
    const session = await this.db
      .selectFrom("sessions")
      .selectAll()
      .where("id_hash", "=", idHash)
      .where("expires_at", ">", nowIso)
      .executeTakeFirst();
    if (!session) return undefined;
    const user = await this.findUserById(session.user_id);
    if (!user) return undefined;
    const found = { session, user };
    if (this.#writes.current === writesBefore) {
      if (this.#live.size >= MAX_CACHED_SESSIONS) this.#live.clear();
      this.#live.set(idHash, found);
    }
    return found;
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.#written(this.db.deleteFrom("sessions").where("id_hash", "=", idHash).execute());
  }

  async deleteUserSessions(userId: string): Promise<void> {
    await this.#written(this.db.deleteFrom("sessions").where("user_id", "=", userId).execute());
  }

  async deleteExpiredSessions(nowIso: string): Promise<void> {
    await this.#written(this.db.deleteFrom("sessions").where("expires_at", "<=", nowIso).execute());
  }

  /** Empties the session cache for a write; lookups that overlap it do not keep what they read. */
  async #written(write: Promise<unknown>): Promise<void> {
    this.#live.clear();
    await this.#writes.around(() => write).finally(() => this.#live.clear());
  }
}
