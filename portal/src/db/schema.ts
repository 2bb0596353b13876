import type { Generated } from "kysely";

/**
 * The portal's tables as the repositories see them. Timestamps are ISO 8601 strings in UTC (they sort as text);
 * booleans are 0/1 integers (SQLite has no boolean type). Only repositories import this file.
 */
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  servers: ServersTable;
  token_metadata: TokenMetadataTable;
  audit_log: AuditLogTable;
  registrations: RegistrationsTable;
}

export interface UsersTable {
  id: string;
  /** Stored lower-cased; unique. */
  email: string;
  name: string;
  role: string;
  /** PHC-style scrypt string, see crypto/password-hash.ts. */
  password_hash: string;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  /** SHA-256 (hex) of the session id carried in the encrypted cookie; the id itself is never stored. */
  id_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  ip: string;
}

export interface ServersTable {
  id: string;
  name: string;
  slug: string;
  server_name: string;
  internal_url: string;
  public_url: string;
  /** The admin token sealed by the secret box (`v1:…`), bound to this row's id. */
  admin_token_enc: string;
  notes: string | null;
  public_domain: string | null;
  route_prefix: string | null;
  branding_profile_id: string | null;
  registration_mode: string | null;
  managed_mode: string | null;
  status: string;
  enabled: number;
  is_default: number;
  last_diag_at: string | null;
  last_diag_ok: number | null;
  token_rotated_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface TokenMetadataTable {
  server_id: string;
  token: string;
  label: string | null;
  note: string | null;
  /** Set by PATCH (disable): the portal refuses the token whatever the homeserver says (uses_allowed 0 is unlimited there). */
  disabled: number;
  created_at: string;
  updated_at: string;
}

export interface AuditLogTable {
  id: Generated<number>;
  server_id: string | null;
  action: string;
  actor: string;
  target: string;
  /** JSON text or null. */
  detail: string | null;
  ip: string;
  created_at: string;
}

export interface RegistrationsTable {
  id: Generated<number>;
  server_id: string;
  user_id: string;
  created_at: string;
}
