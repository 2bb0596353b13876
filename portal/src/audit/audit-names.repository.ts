import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { type SubjectKind, subjectKey } from "./audit-subjects.ts";

/** One subject to name: its kind, the entry's target and the entry's server (tokens are named per server). */
export interface SubjectRef {
  kind: SubjectKind;
  target: string;
  serverId: string | null;
}

/**
 * Names of audited subjects: the live name from the subject's own table (servers, bots, branding profiles,
 * integrations, token labels, administrators), and the last known one kept in `audit_names` for when it is gone.
 */
export class AuditNamesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The current names of the subjects that still exist, by subject key. One query per kind present. */
  async live(refs: SubjectRef[]): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    const ids = (kind: SubjectKind) => [...new Set(refs.filter((ref) => ref.kind === kind).map((ref) => ref.target))];
    const add = (kind: SubjectKind, rows: { id: string; name: string | null }[]) => {
      for (const row of rows) if (row.name) names.set(subjectKey(kind, row.id, null), row.name);
    };
    const servers = ids("server");
    if (servers.length > 0)
      add("server", await this.db.selectFrom("servers").select(["id", "name"]).where("id", "in", servers).execute());
    const bots = ids("bot");
    if (bots.length > 0)
      add("bot", await this.db.selectFrom("bots").select(["id", "display_name as name"]).where("id", "in", bots).execute());
    const profiles = ids("branding");
    if (profiles.length > 0) {
      add("branding", await this.db.selectFrom("branding_profiles").select(["id", "name"]).where("id", "in", profiles).execute());
    }
    const integrations = ids("integration");
    if (integrations.length > 0) {
      add(
        "integration",
        await this.db.selectFrom("integrations").select(["id", "name"]).where("id", "in", integrations).execute(),
      );
    }
    const admins = ids("admin");
    if (admins.length > 0)
      add("admin", await this.db.selectFrom("users").select(["email as id", "name"]).where("email", "in", admins).execute());
    const tokens = refs.filter((ref) => ref.kind === "token");
    if (tokens.length > 0) {
      const rows = await this.db
        .selectFrom("token_metadata")
        .select(["server_id", "token", "label"])
        .where("token", "in", [...new Set(tokens.map((ref) => ref.target))])
        .execute();
      for (const row of rows) if (row.label) names.set(subjectKey("token", row.token, row.server_id), row.label);
    }
    return names;
  }

  /** The last names remembered for these subject keys. */
  async known(keys: string[]): Promise<Map<string, string>> {
    if (keys.length === 0) return new Map();
    const rows = await this.db.selectFrom("audit_names").select(["subject", "name"]).where("subject", "in", keys).execute();
    return new Map(rows.map((row) => [row.subject, row.name]));
  }

  async remember(key: string, name: string, at: string): Promise<void> {
    await this.db
      .insertInto("audit_names")
      .values({ subject: key, name, updated_at: at })
      .onConflict((oc) => oc.column("subject").doUpdateSet({ name, updated_at: at }))
      .execute();
  }
}
