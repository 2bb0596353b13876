import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";

/** Accounts created through the portal (user id and time only). */
export class RegistrationsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: { server_id: string; user_id: string; created_at: string }): Promise<void> {
    await this.db.insertInto("registrations").values(row).execute();
  }

  async countSince(serverId: string, sinceIso: string): Promise<number> {
    const row = await this.db
      .selectFrom("registrations")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("server_id", "=", serverId)
      .where("created_at", ">=", sinceIso)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
