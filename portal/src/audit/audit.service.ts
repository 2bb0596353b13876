import type { AuditFilter, AuditRepository, AuditRow } from "./audit.repository.ts";

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
  | "token.deleted";

/** An audit log entry as the API returns it. */
export interface AuditEntry {
  id: string;
  serverId: string | null;
  action: string;
  actor: string;
  target: string;
  detail: unknown;
  ip: string;
  createdAt: string;
}

function toEntry(row: AuditRow): AuditEntry {
  return {
    id: String(row.id),
    serverId: row.server_id,
    action: row.action,
    actor: row.actor,
    target: row.target,
    detail: row.detail === null ? null : JSON.parse(row.detail),
    ip: row.ip,
    createdAt: row.created_at,
  };
}

/** Writes and reads the audit log. Callers pass details free of secrets: the log is shown to every admin. */
export class AuditService {
  constructor(
    private readonly repository: AuditRepository,
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
  }

  async list(filter: AuditFilter & { limit: number; offset: number }) {
    const { rows, total } = await this.repository.page(filter);
    return { logs: rows.map(toEntry), total };
  }
}
