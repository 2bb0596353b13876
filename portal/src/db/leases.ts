import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "./schema.ts";

/**
 * Named, expiring claims in the database (`leases`, migration 0012), held by one portal instance at a time: what an
 * in-process mutex did for one process, for every instance on the database. Each statement is one atomic row
 * operation (an insert that takes over only an expired row, an update or delete by holder), so SQLite and
 * PostgreSQL both decide a race between instances the same way: exactly one wins. A holder that dies (SIGKILL, a
 * lost machine) stops renewing, and its claim is free once it expires.
 */
export class Leases {
  constructor(
    private readonly db: Kysely<Database>,
    /** The clock (ms) of expiries; instances on one database need clocks in step to well under a lease's length. */
    private readonly now: () => number,
    /** This instance's id in the `holder` column (a new one per process). */
    readonly holder: string = randomUUID(),
  ) {}

  /** Takes `name` for `ttlMs` if nobody holds it or its holder's claim expired; true when it is now ours. */
  async acquire(name: string, ttlMs: number): Promise<boolean> {
    const now = this.now();
    const result = await this.db
      .insertInto("leases")
      .values({ name, holder: this.holder, expires_at: now + ttlMs })
      .onConflict((oc) =>
        oc
          .column("name")
          .doUpdateSet((eb) => ({ holder: eb.ref("excluded.holder"), expires_at: eb.ref("excluded.expires_at") }))
          .where("leases.expires_at", "<=", now),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Extends our claim on `name` by `ttlMs` from now; false when it is no longer ours (it expired and was taken). */
  async renew(name: string, ttlMs: number): Promise<boolean> {
    const result = await this.db
      .updateTable("leases")
      .set({ expires_at: this.now() + ttlMs })
      .where("name", "=", name)
      .where("holder", "=", this.holder)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Gives `name` up, if it is still ours. */
  async release(name: string): Promise<void> {
    await this.db.deleteFrom("leases").where("name", "=", name).where("holder", "=", this.holder).execute();
  }
}
