import type { AuditFilter, AuditRepository, AuditRow } from "./audit.repository.ts";
import type { AuditNamesRepository, SubjectRef } from "./audit-names.repository.ts";
import { subjectKey, subjectKind } from "./audit-subjects.ts";

/** Who performed an admin operation: the session user's e-mail and the client IP. */
export interface AuditActor {
  readonly email: string;
  readonly ip: string;
}

/** Every audit action the portal writes (portal spec, Events; `integration.secret.deleted` is the portal's own). */
export type AuditAction =
  | "branding.created"
  | "branding.updated"
  | "branding.published"
  | "branding.reset"
  | "branding.deleted"
  | "branding.asset.uploaded"
  | "branding.asset.deleted"
  | "bot.created"
  | "bot.updated"
  | "bot.activated"
  | "bot.deactivated"
  | "bot.deleted"
  | "bot.room.assigned"
  | "bot.room.unassigned"
  | "bot.feature.updated"
  | "integration.installed"
  | "integration.updated"
  | "integration.enabled"
  | "integration.disabled"
  | "integration.uninstalled"
  | "integration.secret.rotated"
  | "integration.secret.deleted"
  | "server.created"
  | "server.updated"
  | "server.enabled"
  | "server.disabled"
  | "server.default.changed"
  | "server.token.rotated"
  | "server.diagnostics.run"
  | "server.deleted"
  | "token.created"
  | "token.updated"
  | "token.disabled"
  | "token.deleted"
  | "token.batch.created"
  | "auth.login"
  | "auth.login.failed"
  | "auth.login.failed.summary";

/** An audit log entry as the API returns it: the spec's fields, and the names of what it points at. */
export interface AuditEntry {
  id: string;
  serverId: string | null;
  action: string;
  actor: string;
  target: string;
  detail: unknown;
  ip: string;
  createdAt: string;
  /**
   * The target's name, resolved when the log is read: the server's name, the token's label, the bot's display name,
   * the branding profile's or integration's name, the administrator's name. The current name while the target
   * exists, else the last name the portal knew (`targetGone`); null when it has none (a token without a label).
   */
  targetName: string | null;
  /** The target no longer exists: `targetName` is the last name it had. */
  targetGone: boolean;
  /** The name of the entry's server (current, else the last known); null for portal-wide entries. */
  serverName: string | null;
}

/** The subjects an entry names: its target (when the action's resource is known) and its server. */
function refsOf(row: AuditRow): SubjectRef[] {
  const refs: SubjectRef[] = [];
  const kind = subjectKind(row.action);
  if (kind) refs.push({ kind, target: row.target, serverId: row.server_id });
  if (row.server_id !== null) refs.push({ kind: "server", target: row.server_id, serverId: row.server_id });
  return refs;
}

/** Writes and reads the audit log. Callers pass details free of secrets: the log is shown to every admin. */
export class AuditService {
  constructor(
    private readonly repository: AuditRepository,
    private readonly names: AuditNamesRepository,
    private readonly now: () => number,
  ) {}

  async record(
    actor: AuditActor,
    event: { action: AuditAction; serverId: string | null; target: string; detail?: Record<string, unknown> | null },
  ): Promise<void> {
    await this.repository.insert({
      server_id: event.serverId,
      action: event.action,
      actor: actor.email,
      target: event.target,
      detail: event.detail == null ? null : JSON.stringify(event.detail),
      ip: actor.ip,
      created_at: new Date(this.now()).toISOString(),
    });
    await this.rememberName(event.action, event.target, event.serverId);
  }

  /**
   * Keeps the target's current name as its last known one: every change is audited, so the name an entry shows for
   * a deleted subject is the one it had at its last audited change (its deletion is audited once it is gone, which
   * leaves the remembered name alone).
   */
  private async rememberName(action: string, target: string, serverId: string | null): Promise<void> {
    const kind = subjectKind(action);
    if (kind === undefined || kind === "admin") return;
    const ref = { kind, target, serverId };
    const name = (await this.names.live([ref])).get(subjectKey(kind, target, serverId));
    if (name !== undefined)
      await this.names.remember(subjectKey(kind, target, serverId), name, new Date(this.now()).toISOString());
  }

  async list(filter: AuditFilter & { limit: number; offset: number }): Promise<{ logs: AuditEntry[]; total: number }> {
    const { rows, total } = await this.repository.page(filter);
    const refs = rows.flatMap(refsOf);
    const live = await this.names.live(refs);
    const missing = [...new Set(refs.map((ref) => subjectKey(ref.kind, ref.target, ref.serverId)))].filter(
      (key) => !live.has(key),
    );
    const known = await this.names.known(missing);
    const nameOf = (key: string) => live.get(key) ?? known.get(key) ?? null;
    const logs = rows.map((row): AuditEntry => {
      const kind = subjectKind(row.action);
      const key = kind === undefined ? undefined : subjectKey(kind, row.target, row.server_id);
      return {
        id: String(row.id),
        serverId: row.server_id,
        action: row.action,
        actor: row.actor,
        target: row.target,
        detail: row.detail === null ? null : JSON.parse(row.detail),
        ip: row.ip,
        createdAt: row.created_at,
        targetName: key === undefined ? null : nameOf(key),
        targetGone: key !== undefined && !live.has(key) && known.has(key),
        serverName: row.server_id === null ? null : nameOf(subjectKey("server", row.server_id, null)),
      };
    });
    return { logs, total };
  }
}
