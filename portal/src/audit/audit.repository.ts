import type { Kysely } from "kysely";
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

/** The audit log table. Append-only: nothing here updates or deletes entries. */
export class AuditRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: Omit<AuditRow, "id">): Promise<void> {
    await this.db.insertInto("audit_log").values(row).execute();
  }

  /** Newest first (the id grows with time); `serverId` filters when given. */
  async page(filter: { serverId?: string | undefined; limit: number; offset: number }): Promise<AuditRow[]> {
    let query = this.db.selectFrom("audit_log").selectAll();
    if (filter.serverId !== undefined) query = query.where("server_id", "=", filter.serverId);
    return query.orderBy("id", "desc").limit(filter.limit).offset(filter.offset).execute();
  }

  async count(serverId?: string): Promise<number> {
    let query = this.db.selectFrom("audit_log").select((eb) => eb.fn.countAll<number>().as("n"));
    if (serverId !== undefined) query = query.where("server_id", "=", serverId);
    const row = await query.executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
