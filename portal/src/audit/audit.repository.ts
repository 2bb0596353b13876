import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from "kysely";
import { dialectOf } from "../db/dialect.ts";
import type { Database } from "../db/schema.ts";

export interface AuditRow {
  id: number;
  server_id: string | null;
  action: string;
  actor: string;
  target: string;
  detail: string | null;
  ip: string;
  created_at: string;
}

/** Which entries to list: each given field narrows the list. */
export interface AuditFilter {
  serverId?: string | undefined;
  /** An exact action (`token.disabled`) or a prefix of whole segments (`token` matches `token.*`). */
  action?: string | undefined;
  /** The actor's e-mail, lower-cased. */
  actor?: string | undefined;
}

/** One page of entries, newest first, and how many entries match the filter in all. */
export interface AuditPage {
  rows: AuditRow[];
  total: number;
}

/**
 * Above this many distinct actions under one prefix (the portal writes about 35 in all), a prefix filter reads one
 * index range and sorts it instead of merging one newest-first index walk per action (same entries, slower).
 */
export const MAX_MERGED_ACTIONS = 64;

type Where = ExpressionBuilder<Database, "audit_log">;

/**
 * The audit log table. Append-only: nothing here updates or deletes entries. Totals of the whole log and of one
 * server come from `audit_log_counts` (kept by triggers, migration 0009) instead of counting a million rows.
 */
export class AuditRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: Omit<AuditRow, "id">): Promise<void> {
    await this.db.insertInto("audit_log").values(row).execute();
  }

  /** Newest first (the id grows with time), narrowed by `filter`, with the total of matching entries. */
  async page(filter: AuditFilter & { limit: number; offset: number }): Promise<AuditPage> {
    if (filter.action === undefined && filter.actor === undefined) {
      if (filter.serverId === undefined) return this.wholeLogPage(filter.limit, filter.offset);
      const rows = await this.filteredRows(filter, undefined);
      return { rows, total: await this.serverTotal(filter.serverId) };
    }
    const actions = filter.action === undefined ? undefined : await this.actionsMatching(filter.action);
    if (actions?.length === 0) return { rows: [], total: 0 };
    const rows = await this.filteredRows(filter, actions);
    const counted = await this.db
      .selectFrom("audit_log")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where((eb) => this.matches(eb, filter, actions))
      .executeTakeFirstOrThrow();
    return { rows, total: Number(counted.n) };
  }

  /**
   * The unfiltered log. While its ids are dense (no entry was ever removed: the counter equals max − min + 1, three
   * index probes), entry k from the newest has id `max − k`, so a page at any depth is one primary-key seek;
   * otherwise OFFSET walks the skipped entries. Both give the same page.
   */
  private async wholeLogPage(limit: number, offset: number): Promise<AuditPage> {
    const bounds = await this.db
      .selectNoFrom((eb) => [
        eb.selectFrom("audit_log_counts").select("entries").where("scope", "=", "all").where("server_id", "=", "").as("total"),
        eb
          .selectFrom("audit_log")
          .select((inner) => inner.fn.max("id").as("id"))
          .as("newest"),
        eb
          .selectFrom("audit_log")
          .select((inner) => inner.fn.min("id").as("id"))
          .as("oldest"),
      ])
      .executeTakeFirstOrThrow();
    const total = Number(bounds.total ?? 0);
    const newest = bounds.newest ?? 0;
    const dense = total > 0 && newest - (bounds.oldest ?? 0) + 1 === total;
    const query = this.db.selectFrom("audit_log").selectAll().orderBy("id", "desc").limit(limit);
    const rows = dense ? await query.where("id", "<=", newest - offset).execute() : await query.offset(offset).execute();
    return { rows, total };
  }

  private async serverTotal(serverId: string): Promise<number> {
    const row = await this.db
      .selectFrom("audit_log_counts")
      .select("entries")
      .where("scope", "=", "server")
      .where("server_id", "=", serverId)
      .executeTakeFirst();
    return row?.entries ?? 0;
  }

  /**
   * The page's ids come from newest-first walks of the `(server_id | actor | action, id)` indexes, one per matching
   * action merged by SQLite (a compound SELECT with ORDER BY merges, it does not sort), touching only index entries
   * for the skipped ones; then the page's 1-200 rows are read by id.
   */
  private async filteredRows(
    filter: AuditFilter & { limit: number; offset: number },
    actions: string[] | undefined,
  ): Promise<AuditRow[]> {
    const arm = (only: string[] | undefined) =>
      this.db
        .selectFrom("audit_log")
        .select("id")
        .where((eb) => this.matches(eb, filter, only));
    const [first, ...rest] = actions === undefined ? [undefined] : actions.map((action) => [action]);
    let ids = arm(first);
    for (const only of rest) ids = ids.unionAll(arm(only));
    return this.db
      .selectFrom("audit_log")
      .selectAll()
      .where("id", "in", ids.orderBy("id", "desc").limit(filter.limit).offset(filter.offset))
      .orderBy("id", "desc")
      .execute();
  }

  /**
   * The filter as a condition. `actions`, when given, stands for `filter.action`: the distinct stored actions it
   * matches; without it the action is matched as a range (too many distinct actions to list).
   */
  private matches(eb: Where, filter: AuditFilter, actions: string[] | undefined): Expression<SqlBool> {
    const conditions: Expression<SqlBool>[] = [];
    if (filter.serverId !== undefined) conditions.push(eb("server_id", "=", filter.serverId));
    if (filter.actor !== undefined) conditions.push(eb("actor", "=", filter.actor));
    if (actions !== undefined) conditions.push(eb("action", "in", actions));
    else if (filter.action !== undefined) {
      const { action } = filter;
      const [from, to] = segmentRange(action);
      conditions.push(eb.or([eb("action", "=", action), eb.and([eb("action", ">=", from), eb("action", "<", to)])]));
    }
    return eb.and(conditions);
  }

  /**
   * The distinct stored actions equal to `action` or under it as a prefix of whole segments (`token` finds
   * `token.created`, never `tokenizer.x`), found by hopping along the `(action, id)` index: one seek per distinct
   * value, whatever the number of entries. Compared as bytes, like the actions the portal writes (lower case).
   * Undefined when there are more than MAX_MERGED_ACTIONS values to hop over.
   */
  private async actionsMatching(action: string): Promise<string[] | undefined> {
    const [from, to] = segmentRange(action);
    // From `action` itself to the end of its range; the last hop finds nothing (NULL) unless the limit cut it short.
    const first = sql`SELECT min(action) FROM audit_log WHERE action >= ${action} AND action < ${to}`;
    const next = sql`SELECT (SELECT min(action) FROM audit_log WHERE action > hop.action AND action < ${to})
      FROM hop WHERE hop.action IS NOT NULL`;
    const limit = MAX_MERGED_ACTIONS + 1;
    // SQLite stops a recursion by the LIMIT inside it; PostgreSQL refuses that, and computes only the rows the outer
    // query fetches, so there the LIMIT stands outside.
    const hops = await (dialectOf(this.db) === "postgres"
      ? sql<{ action: string | null }>`WITH RECURSIVE hop(action) AS (${first} UNION ALL ${next})
          SELECT action FROM hop LIMIT ${limit}`
      : sql<{ action: string | null }>`WITH RECURSIVE hop(action) AS (${first} UNION ALL ${next} LIMIT ${limit})
          SELECT action FROM hop`
    ).execute(this.db);
    if (hops.rows.at(-1)?.action !== null) return undefined;
    // Values between `action` and its range (`token-x`) are hopped over, not matched.
    return hops.rows.flatMap((row) => (row.action === action || row.action?.startsWith(from) ? [row.action] : []));
  }
}

/** `[from, to)` holding exactly the strings that start with `prefix.` ('/' is the character after '.'). */
function segmentRange(prefix: string): [string, string] {
  return [`${prefix}.`, `${prefix}/`];
}
