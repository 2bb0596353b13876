import type { BotTemplate } from "./bot-templates.ts";
import type { BotFeatureRow, BotRoomRow, BotRow } from "./bots.repository.ts";

export interface BotRecord {
  id: string;
  serverId: string;
  templateId: string;
  displayName: string;
  localpart: string;
  matrixUserId: string;
  avatarUrl: string | null;
  config: Record<string, unknown>;
  status: string;
  enabled: boolean;
  /** An access token is stored (sealed); the token itself is never returned. */
  hasAccessToken: boolean;
  tokenSetAt: string | null;
  /** When the homeserver last confirmed (whoami) that the stored token belongs to this bot. */
  tokenVerifiedAt: string | null;
  /** When the display name and avatar were last pushed to the homeserver profile. */
  profileSyncedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface RoomAssignmentRecord {
  id: string;
  botId: string;
  roomId: string;
  roomAlias: string | null;
  config: Record<string, unknown>;
  createdAt: string;
}

export interface FeatureRecord {
  id: string;
  botId: string;
  featureKey: string;
  enabled: boolean;
  scope: string;
  scopeId: string | null;
  config: Record<string, unknown>;
  updatedAt: string;
}

export type BotDetail = BotRecord & { template: BotTemplate | null; rooms: RoomAssignmentRecord[]; features: FeatureRecord[] };

export const parseObject = (json: string): Record<string, unknown> => {
  try {
    const value = JSON.parse(json);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
};

export const matrixUserId = (localpart: string, serverName: string) => `@${localpart}:${serverName}`;

/** A localpart from a display name: `Welcome Bot` → `welcome-bot` (ASCII, the spec's characters, ≤ 48). */
export function localpartFrom(displayName: string, fallback: string): string {
  const slug = displayName
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9._=-]+/g, "-")
    .replace(/^[-._=]+|[-._=]+$/g, "")
    .slice(0, 48)
    .replace(/[-._=]+$/g, "");
  return slug === "" || /^\d+$/.test(slug) ? fallback : slug;
}

export function toRoom(row: BotRoomRow): RoomAssignmentRecord {
  return {
    id: row.id,
    botId: row.bot_id,
    roomId: row.room_id,
    roomAlias: row.room_alias,
    config: parseObject(row.config),
    createdAt: row.created_at,
  };
}

export function toFeature(row: BotFeatureRow): FeatureRecord {
  return {
    id: row.id,
    botId: row.bot_id,
    featureKey: row.feature_key,
    enabled: row.enabled === 1,
    scope: row.scope,
    scopeId: row.scope === "room" ? row.scope_id : null,
    config: parseObject(row.config),
    updatedAt: row.updated_at,
  };
}

/** A bot as the API shows it (never its token). */
export function toBotRecord(row: BotRow, serverName: string): BotRecord {
  return {
    id: row.id,
    serverId: row.server_id,
    templateId: row.template_id,
    displayName: row.display_name,
    localpart: row.localpart,
    matrixUserId: matrixUserId(row.localpart, serverName),
    avatarUrl: row.avatar_url,
    config: parseObject(row.config),
    status: row.status,
    enabled: row.enabled === 1,
    hasAccessToken: row.access_token_enc !== null,
    tokenSetAt: row.token_set_at,
    tokenVerifiedAt: row.token_verified_at,
    profileSyncedAt: row.profile_synced_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
