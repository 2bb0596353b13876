import type { CompiledQuery, Kysely } from "kysely";
import { lockedTransaction } from "./dialect.ts";
import type { Database } from "./schema.ts";

/**
 * The names of the shared write counts: one per cache that must see every instance's writes (docs/scale-out.md).
 * `tokens:<server id>` moves after every change to a server's registration tokens made through the portal.
 */
export const GENERATIONS = {
  auth: "auth",
  servers: "servers",
  tokens: (serverId: string) => `tokens:${serverId}`,
} as const;

/** Moves a shared generation by one (creating it), in `db`, which may be the transaction of the write it stands for. */
export async function bumpGeneration(db: Kysely<Database>, name: string): Promise<void> {
  await db
    .insertInto("shared_generations")
    .values({ name, value: 1 })
    .onConflict((oc) => oc.column("name").doUpdateSet((eb) => ({ value: eb("shared_generations.value", "+", 1) })))
    .execute();
}

/**
 * Counts the writes to one table (or one group of rows) for the repositories that keep rows of it in memory, in the
 * database (`shared_generations`, migration 0012), so that every portal instance on the database sees every other's
 * writes (issue 24). A repository runs each write through {@link around}: the count moves in the same transaction as
 * the write, so a reader that finds the count unchanged since before its read knows no write landed in between, on
 * any instance. Shared between repositories when more than one writes the same table.
 */
export class WriteGeneration {
  /**
   * The read, compiled once: it runs on every admin request (sessions, servers, token lists), and Kysely builds and
   * compiles a query anew on each call, three times the cost of running it (docs/PERFORMANCE.md, "Portal token
   * list, closed loop").
   */
  readonly #read: CompiledQuery<{ value: number | string }>;

  constructor(
    private readonly db: Kysely<Database>,
    readonly name: string,
  ) {
    this.#read = db.selectFrom("shared_generations").select("value").where("name", "=", name).compile();
  }

  /** Callers waiting for the read that runs at the end of this turn of the event loop. */
  #asking: { resolve: (count: number) => void; reject: (error: unknown) => void }[] | undefined;

  /**
   * The count now, as committed. Every caller of one turn of the event loop (the admin requests that arrived together)
   * shares one read, run after the last of them asked (setImmediate): each still gets a count read after it asked,
   * so a write committed before any of them asked is seen by all. Under 50 concurrent admin clients this is one query
   * per turn instead of one per request.
   */
  current(): Promise<number> {
    return new Promise((resolve, reject) => {
      if (this.#asking) {
        this.#asking.push({ resolve, reject });
        return;
      }
      const asking = [{ resolve, reject }];
      this.#asking = asking;
      setImmediate(() => {
        // Closed before the read starts: a caller from now on waits for a read that starts after it.
        this.#asking = undefined;
        this.db.executeQuery(this.#read).then(
          ({ rows }) => {
            const count = rows[0] ? Number(rows[0].value) : 0;
            for (const caller of asking) caller.resolve(count);
          },
          (error: unknown) => {
            for (const caller of asking) caller.reject(error);
          },
        );
      });
    });
  }

  /**
   * Runs `write` in a transaction that first moves the count. Moving it first also takes SQLite's write lock at the
   * start, so a second process waits (busy timeout) instead of failing on a read snapshot gone stale. With `lock`,
   * the transaction holds that lock from its start (dialect.ts, lockedTransaction), before the count.
   */
  around<T>(write: (trx: Kysely<Database>) => Promise<T>, lock?: string): Promise<T> {
    const work = async (trx: Kysely<Database>) => {
      await bumpGeneration(trx, this.name);
      return write(trx);
    };
    return lock === undefined ? this.db.transaction().execute(work) : lockedTransaction(this.db, lock, work);
  }
}

/**
 * Rows of one table kept in memory by key, valid while the table's {@link WriteGeneration} stands where it stood before
 * they were read: each lookup reads the count (one primary-key read, shared by the lookups of one event-loop turn,
 * cheaper than the rows it saves) and empties the kept rows when it moved. Exact across instances: a kept row is used
 * only while no write has committed since before it was read. At most `max` rows (past that the set starts afresh:
 * it only guards against a flood of keys).
 */
export class KeptRows<V> {
  readonly #rows = new Map<string, V>();
  #at = -1;

  constructor(
    private readonly writes: WriteGeneration,
    private readonly max = 1_000,
  ) {}

  /** The kept row for `key` if the count has not moved, else what `read` finds (kept unless a write came between). */
  async get(key: string, read: () => Promise<V | undefined>): Promise<V | undefined> {
    const generation = await this.writes.current();
    // Counts only grow: a lookup that read an older count than another one already saw keeps nothing.
    if (generation > this.#at) {
      this.#rows.clear();
      this.#at = generation;
    }
    if (generation === this.#at) {
      const kept = this.#rows.get(key);
      if (kept !== undefined) return kept;
    }
    const value = await read();
    if (value !== undefined && generation === this.#at) {
      if (this.#rows.size >= this.max) this.#rows.clear();
      this.#rows.set(key, value);
    }
    return value;
  }
}
