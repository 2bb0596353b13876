import { type Kysely, type SelectQueryBuilder, sql } from "kysely";
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

/** The audit log table. Append-only: nothing here updates or deletes entries. */
export class AuditRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: Omit<AuditRow, "id">): Promise<void> {
    await this.db.insertInto("audit_log").values(row).execute();
  }

  /** Newest first (the id grows with time), narrowed by `filter`. */
  async page(filter: AuditFilter & { limit: number; offset: number }): Promise<AuditRow[]> {
    return this.filtered(this.db.selectFrom("audit_log").selectAll(), filter)
      .orderBy("id", "desc")
      .limit(filter.limit)
      .offset(filter.offset)
      .execute();
  }

  async count(filter: AuditFilter = {}): Promise<number> {
    const query = this.db.selectFrom("audit_log").select((eb) => eb.fn.countAll<number>().as("n"));
    const row = await this.filtered(query, filter).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  private filtered<Q extends SelectQueryBuilder<Database, "audit_log", object>>(query: Q, filter: AuditFilter): Q {
    let narrowed: SelectQueryBuilder<Database, "audit_log", object> = query;
    if (filter.serverId !== undefined) narrowed = narrowed.where("server_id", "=", filter.serverId);
    if (filter.actor !== undefined) narrowed = narrowed.where("actor", "=", filter.actor);
    const { action } = filter;
    if (action !== undefined) {
      // A prefix matches whole segments only: `token` finds `token.created`, never `tokenizer.x`. The action syntax
      // (letters, dots, underscores) leaves no LIKE wildcard to escape except `_`, which is escaped.
      const pattern = `${action.replaceAll("_", "\\_")}.%`;
      narrowed = narrowed.where((eb) =>
        eb.or([eb("action", "=", action), eb("action", "like", sql<string>`${pattern} escape '\\'`)]),
      );
    }
    return narrowed as Q;
  }
}
