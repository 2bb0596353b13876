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
  audit_log_counts: AuditLogCountsTable;
  audit_names: AuditNamesTable;
  registrations: RegistrationsTable;
  branding_profiles: BrandingProfilesTable;
  branding_assets: BrandingAssetsTable;
  bots: BotsTable;
  bot_rooms: BotRoomsTable;
  bot_features: BotFeaturesTable;
  integrations: IntegrationsTable;
  integration_secrets: IntegrationSecretsTable;
  integration_snapshots: IntegrationSnapshotsTable;
  shared_generations: SharedGenerationsTable;
  leases: LeasesTable;
  rate_limit_slots: RateLimitSlotsTable;
  rate_limit_failures: RateLimitFailuresTable;
  login_audit_windows: LoginAuditWindowsTable;
  login_audit_seen: LoginAuditSeenTable;
  branding_asset_content: BrandingAssetContentTable;
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
  /** The admin token sealed by the secret box (`v1:…`), bound to this row's id; empty for a MAS server without one. */
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
  /** `synapse` (tokens through Synapse's admin API) or `mas` (through MAS's admin API); migration 0011. */
  kind: "synapse" | "mas";
  /** MAS servers: the MAS base URL the portal calls (admin API, token endpoint). */
  mas_url: string | null;
  /** MAS servers: MAS's URL for browsers (sign-up), when it differs from `mas_url`. */
  mas_public_url: string | null;
  mas_client_id: string | null;
  /** The OAuth 2.0 client secret sealed by the secret box, bound to this row's id. */
  mas_client_secret_enc: string | null;
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

/**
 * Entry counts of the audit log, kept by triggers on `audit_log` (migration 0009): scope `all` (server_id '') for
 * the whole log, scope `server` per server id. Read-only for the portal's code.
 */
export interface AuditLogCountsTable {
  scope: "all" | "server";
  server_id: string;
  entries: number;
}

/**
 * The last known name of everything audit entries point at (migration 0010): kept up to date by every audited
 * operation, so an entry about a deleted server, bot, profile, integration or token label still reads by name.
 * `subject` is `<kind>:<id>`, for tokens `token:<server id>:<token>` (audit/audit-subjects.ts).
 */
export interface AuditNamesTable {
  subject: string;
  name: string;
  updated_at: string;
}

export interface RegistrationsTable {
  id: Generated<number>;
  server_id: string;
  user_id: string;
  created_at: string;
}

export interface BrandingProfilesTable {
  id: string;
  name: string;
  is_active: number;
  /** 1 while the profile has changes not yet published (or was never published). */
  is_draft: number;
  /** 0 until the first publish; each publish adds 1. */
  version: number;
  /** JSON object of the fields an admin set; unset fields take the defaults. */
  settings: string;
  /** JSON copy of `settings` made by the last publish (what the public page shows), null before the first. */
  published_settings: string | null;
  published_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface BrandingAssetsTable {
  id: string;
  profile_id: string;
  purpose: string;
  /** The uploader's file name, cleaned (shown to admins only). */
  filename: string;
  /** Decided from the bytes, never from the name or the declared type. */
  mime_type: string;
  size: number;
  /** Hex SHA-256 of the bytes: the ETag. */
  sha256: string;
  /** Generated file name inside the assets directory; never returned by the API. */
  storage_name: string;
  created_at: string;
}

export interface BotsTable {
  id: string;
  server_id: string;
  template_id: string;
  display_name: string;
  localpart: string;
  avatar_url: string | null;
  /** JSON object. */
  config: string;
  status: string;
  enabled: number;
  /** The bot's access token sealed by the secret box (context `bot:<id>:access-token`), or null. */
  access_token_enc: string | null;
  token_set_at: string | null;
  token_verified_at: string | null;
  profile_synced_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface BotRoomsTable {
  id: string;
  bot_id: string;
  room_id: string;
  room_alias: string | null;
  config: string;
  created_at: string;
}

export interface BotFeaturesTable {
  id: string;
  bot_id: string;
  feature_key: string;
  enabled: number;
  scope: string;
  /** The room id for room scope; '' for global scope. */
  scope_id: string;
  config: string;
  updated_at: string;
}

export interface IntegrationsTable {
  id: string;
  server_id: string;
  catalog_id: string;
  name: string;
  type: string;
  deployment_mode: string;
  status: string;
  enabled: number;
  config_version: number;
  /** JSON object: the current configuration (the latest snapshot). */
  config: string;
  appservice_id: string | null;
  sender_localpart: string | null;
  /** Hex SHA-256 of the appservice `as_token` (uniqueness per server without storing the token in clear). */
  as_token_hash: string | null;
  /** JSON manifest of the generated files: name, purpose, sha256, containsSecrets, mode. */
  files: string;
  /** JSON of the last health check. */
  last_health: string | null;
  last_health_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface IntegrationSecretsTable {
  id: string;
  integration_id: string;
  key: string;
  /** Sealed by the secret box (context `integration:<id>:secret:<key>`). */
  value_enc: string;
  /** 1 when the portal generated the value (appservice tokens, keys), 0 when an admin set it. */
  generated: number;
  created_at: string;
  rotated_at: string | null;
}

export interface IntegrationSnapshotsTable {
  id: Generated<number>;
  integration_id: string;
  version: number;
  config: string;
  /** `install`, `update` or `secret`. */
  reason: string;
  actor: string;
  created_at: string;
}

/*
 * Migration 0012: state shared by every portal instance on the database (issue 24). Millisecond times are `bigint`
 * columns, which PostgreSQL's driver may hand back as strings: repositories read them through `Number()`.
 */

/** A counter per cached thing, moved with every write to it (db/shared-generation.ts). */
export interface SharedGenerationsTable {
  name: string;
  value: number | string;
}

/** A named claim held by one instance until `expires_at` (db/leases.ts). */
export interface LeasesTable {
  name: string;
  /** The holding instance's random id. */
  holder: string;
  expires_at: number | string;
}

/** One counted action of a sliding-window limit (rate-limit/shared-window.ts). */
export interface RateLimitSlotsTable {
  /** Which limit (`registration`, `login-address`…). */
  bucket: string;
  /** Whose actions (client IP, device id). */
  key: string;
  /** 0 ≤ slot < limit. */
  slot: number;
  /** What was counted, for limits of distinct members (the account of a failed login); '' otherwise. */
  member: string;
  at: number | string;
}

/** Consecutive failures of one key and the lock they earned (rate-limit/shared-backoff.ts). */
export interface RateLimitFailuresTable {
  bucket: string;
  key: string;
  failures: number;
  last_at: number | string;
  locked_until: number | string;
}

/**
 * The failed-login audit budget of one window, for all instances (audit/login-audit.ts): rows `window:<start ms>`,
 * and the row `current`, whose `started_at` is the start of the window under way.
 */
export interface LoginAuditWindowsTable {
  name: string;
  started_at: number | string;
  /** Individual entries written in this window. */
  written: number;
  /** Attempts beyond the budget: counted for the summary. */
  attempts: number;
  limited: number;
  first_at: string | null;
  last_at: string | null;
  /** The one client address of the counted attempts, '(many)' once there are several. */
  single_ip: string | null;
  /** Distinct accounts and addresses counted (fingerprints in `login_audit_seen`), up to the summary's bound. */
  accounts: number;
  addresses: number;
  /** 1 once an instance took the window to write its summary: nothing more is counted into it. */
  summarized: number;
}

/** Keyed fingerprints of the accounts and addresses counted in a window (the text itself is never stored). */
export interface LoginAuditSeenTable {
  window_start: number | string;
  kind: "account" | "address";
  fingerprint: string;
}

/** The bytes of a branding asset, base64 (migration 0013). */
export interface BrandingAssetContentTable {
  asset_id: string;
  content: string;
}
