import { randomUUID } from "node:crypto";
import { badRequest, conflict, HttpError, notFound } from "../../../lib/http-error.ts";
import type { Logger } from "../../../lib/logger.ts";
import type { AuditActor, AuditService } from "../audit/audit.service.ts";
import { type SecretBox, SecretBoxError } from "../crypto/secret-box.ts";
import { uniqueViolation } from "../db/constraints.ts";
import type { HomeserverConnector } from "../homeserver/connector.ts";
import { type ProfileFieldOutcome, setProfileField, type WhoamiOutcome, whoami } from "../homeserver/matrix-identity.ts";
import type { ServerRow } from "../servers/servers.repository.ts";
import type { ServersService } from "../servers/servers.service.ts";
import { type BotTemplate, FEATURE_KEYS, findTemplate } from "./bot-templates.ts";
import type { BotFeatureRow, BotRoomRow, BotRow, BotsRepository } from "./bots.repository.ts";
import type { AssignRoomInput, BotAction, CreateBotInput, FeatureToggleInput, UpdateBotInput } from "./bots.schema.ts";

/** The secret box context of a bot's access token: the ciphertext only opens for this bot. */
export const botTokenContext = (botId: string) => `bot:${botId}:access-token`;

/** Each homeserver check of a bot (whoami, profile) has this long. */
const BOT_CALL_TIMEOUT_MS = 5_000;

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

/** The result of pushing the bot's profile: one outcome per field, or `skipped` with the reason. */
export type ProfileSync = { displayname: ProfileFieldOutcome; avatar_url: ProfileFieldOutcome | "skipped" } | { skipped: string };

/** The result of checking a new token with whoami. */
export type TokenCheck = { verified: true; userId: string } | { verified: false; reason: string };

const parseObject = (json: string): Record<string, unknown> => {
  try {
    const value = JSON.parse(json);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
};

const matrixUserId = (localpart: string, serverName: string) => `@${localpart}:${serverName}`;

/** A localpart from a display name: `Welcome Bot` → `welcome-bot` (ASCII, the spec's characters, ≤ 48). */
function localpartFrom(displayName: string, fallback: string): string {
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

function toRoom(row: BotRoomRow): RoomAssignmentRecord {
  return {
    id: row.id,
    botId: row.bot_id,
    roomId: row.room_id,
    roomAlias: row.room_alias,
    config: parseObject(row.config),
    createdAt: row.created_at,
  };
}

function toFeature(row: BotFeatureRow): FeatureRecord {
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

/**
 * Bots of a managed server: template catalog, CRUD, room assignments, feature toggles, activation, and the access
 * token (sealed; checked with whoami when the homeserver answers; used to push the bot's display name and avatar).
 */
export class BotsService {
  constructor(
    private readonly repository: BotsRepository,
    private readonly servers: ServersService,
    private readonly box: SecretBox,
    private readonly connector: HomeserverConnector,
    private readonly audit: AuditService,
    private readonly now: () => number,
    private readonly log: Logger,
  ) {}

  async list(serverId: string): Promise<BotRecord[]> {
    const server = await this.servers.requireRow(serverId);
    return (await this.repository.listForServer(serverId)).map((row) => this.toRecord(row, server));
  }

  async get(id: string, serverId?: string): Promise<BotDetail> {
    const { row, server } = await this.requireBot(id, serverId);
    const [rooms, features] = await Promise.all([this.repository.listRooms(id), this.repository.listFeatures(id)]);
    return {
      ...this.toRecord(row, server),
      template: findTemplate(row.template_id) ?? null,
      rooms: rooms.map(toRoom),
      features: features.map(toFeature),
    };
  }

  /**
   * Creates an inactive bot from a template: its config is the template's defaults under the given config, and the
   * ten global feature toggles are written (on for the template's default features). Without a localpart one is
   * made from the display name, made unique on the server with `-2`, `-3`…
   */
  async create(serverId: string, input: CreateBotInput, actor: AuditActor): Promise<BotRecord> {
    const server = await this.servers.requireRow(serverId);
    const template = findTemplate(input.templateId);
    if (!template) throw badRequest(`Unknown templateId ${input.templateId}: see GET /api/admin/bots?view=templates`);
    let localpart = input.localpart;
    if (localpart === undefined) {
      const base = localpartFrom(input.displayName, template.suggestedLocalpart);
      localpart = base;
      for (let n = 2; await this.repository.localpartTaken(serverId, localpart); n++) localpart = `${base}-${n}`;
    } else if (await this.repository.localpartTaken(serverId, localpart)) {
      throw conflict(`Another bot on this server already uses the localpart ${localpart}`);
    }
    if (matrixUserId(localpart, server.server_name).length > 255) {
      throw badRequest("The bot's Matrix user ID would be longer than 255 characters");
    }
    const id = randomUUID();
    const nowIso = this.isoNow();
    const row: BotRow = {
      id,
      server_id: serverId,
      template_id: template.id,
      display_name: input.displayName,
      localpart,
      avatar_url: input.avatarUrl ?? null,
      config: JSON.stringify({ ...structuredClone(template.defaultConfig), ...input.config }),
      status: "inactive",
      enabled: 0,
      access_token_enc: null,
      token_set_at: null,
      token_verified_at: null,
      profile_synced_at: null,
      created_at: nowIso,
      updated_at: nowIso,
    };
    const features: BotFeatureRow[] = FEATURE_KEYS.map((key) => ({
      id: randomUUID(),
      bot_id: id,
      feature_key: key,
      enabled: template.defaultFeatures.includes(key) ? 1 : 0,
      scope: "global",
      scope_id: "",
      config: "{}",
      updated_at: nowIso,
    }));
    await this.repository.insert(row, features).catch((error) => {
      if (uniqueViolation(error)) throw conflict(`Another bot on this server already uses the localpart ${localpart}`);
      throw error;
    });
    await this.audit.record(actor, {
      action: "bot.created",
      serverId,
      target: id,
      detail: { templateId: template.id, localpart, matrixUserId: matrixUserId(localpart, server.server_name) },
    });
    return this.toRecord(row, server);
  }

  /** Changes display name, avatar and/or config; a bot with a token gets the new name and avatar on its profile. */
  async update(id: string, input: UpdateBotInput, actor: AuditActor): Promise<{ bot: BotRecord; profileSync?: ProfileSync }> {
    const { row, server } = await this.requireBot(id);
    const changes: Parameters<BotsRepository["update"]>[1] = { updated_at: this.isoNow() };
    if (input.displayName !== undefined) changes.display_name = input.displayName;
    if (input.avatarUrl !== undefined) changes.avatar_url = input.avatarUrl;
    if (input.config !== undefined) changes.config = JSON.stringify(input.config);
    await this.repository.update(id, changes);
    await this.audit.record(actor, {
      action: "bot.updated",
      serverId: row.server_id,
      target: id,
      detail: { fields: Object.keys(input) },
    });
    const updated = (await this.repository.find(id)) as BotRow;
    const profileChanged =
      (input.displayName !== undefined && input.displayName !== row.display_name) ||
      (input.avatarUrl !== undefined && input.avatarUrl !== row.avatar_url);
    if (!profileChanged || updated.access_token_enc === null) return { bot: this.toRecord(updated, server) };
    const profileSync = await this.pushProfile(updated, server);
    return { bot: this.toRecord((await this.repository.find(id)) as BotRow, server), profileSync };
  }

  async act(
    id: string,
    action: BotAction,
    actor: AuditActor,
  ): Promise<{ bot: BotRecord; tokenCheck?: TokenCheck; profileSync?: ProfileSync }> {
    const { row, server } = await this.requireBot(id);
    const nowIso = this.isoNow();
    switch (action.action) {
      case "activate":
        await this.repository.update(id, { status: "active", enabled: 1, updated_at: nowIso });
        await this.audit.record(actor, { action: "bot.activated", serverId: row.server_id, target: id });
        break;
      case "deactivate":
        await this.repository.update(id, { status: "inactive", enabled: 0, updated_at: nowIso });
        await this.audit.record(actor, { action: "bot.deactivated", serverId: row.server_id, target: id });
        break;
      case "set_token":
        return this.setToken(row, server, action.accessToken);
    }
    return { bot: this.toRecord((await this.repository.find(id)) as BotRow, server) };
  }

  /** Deletes an inactive bot with its rooms and features (409 while it is active). */
  async delete(id: string, actor: AuditActor): Promise<void> {
    const { row } = await this.requireBot(id);
    if (row.status !== "inactive") throw conflict("Deactivate the bot before deleting it");
    if (!(await this.repository.deleteIfInactive(id))) throw conflict("The bot was activated meanwhile; not deleted");
    await this.audit.record(actor, {
      action: "bot.deleted",
      serverId: row.server_id,
      target: id,
      detail: { localpart: row.localpart, templateId: row.template_id },
    });
  }

  async rooms(id: string): Promise<RoomAssignmentRecord[]> {
    await this.requireBot(id);
    return (await this.repository.listRooms(id)).map(toRoom);
  }

  async assignRoom(id: string, input: AssignRoomInput, actor: AuditActor): Promise<RoomAssignmentRecord> {
    const { row } = await this.requireBot(id);
    const room: BotRoomRow = {
      id: randomUUID(),
      bot_id: id,
      room_id: input.roomId,
      room_alias: input.roomAlias ?? null,
      config: JSON.stringify(input.config ?? {}),
      created_at: this.isoNow(),
    };
    await this.repository.insertRoom(room).catch((error) => {
      if (uniqueViolation(error)) throw conflict(`The bot is already assigned to ${input.roomId}`);
      throw error;
    });
    await this.audit.record(actor, {
      action: "bot.room.assigned",
      serverId: row.server_id,
      target: id,
      detail: { assignmentId: room.id, roomId: room.room_id, roomAlias: room.room_alias },
    });
    return toRoom(room);
  }

  /** Removes an assignment and the feature toggles scoped to that room. */
  async unassignRoom(id: string, assignmentId: string, actor: AuditActor): Promise<void> {
    const { row } = await this.requireBot(id);
    const removed = await this.repository.removeRoom(id, assignmentId);
    if (!removed) throw notFound(`No room assignment ${assignmentId} for this bot`);
    await this.audit.record(actor, {
      action: "bot.room.unassigned",
      serverId: row.server_id,
      target: id,
      detail: { assignmentId, roomId: removed.room_id },
    });
  }

  async features(id: string): Promise<FeatureRecord[]> {
    await this.requireBot(id);
    return (await this.repository.listFeatures(id)).map(toFeature);
  }

  /** Sets one toggle. A room-scoped toggle needs the bot to be assigned to that room. */
  async toggleFeature(id: string, input: FeatureToggleInput, actor: AuditActor): Promise<FeatureRecord> {
    const { row } = await this.requireBot(id);
    const scopeId = input.scope === "room" ? (input.scopeId as string) : "";
    if (input.scope === "room") {
      const rooms = await this.repository.listRooms(id);
      if (!rooms.some((room) => room.room_id === scopeId)) {
        throw badRequest(`Assign the bot to ${scopeId} before setting a feature for that room`);
      }
    }
    const feature = await this.repository.upsertFeature({
      id: randomUUID(),
      bot_id: id,
      feature_key: input.featureKey,
      enabled: input.enabled ? 1 : 0,
      scope: input.scope,
      scope_id: scopeId,
      config: JSON.stringify(input.config ?? {}),
      updated_at: this.isoNow(),
    });
    await this.audit.record(actor, {
      action: "bot.feature.updated",
      serverId: row.server_id,
      target: id,
      detail: { featureKey: input.featureKey, enabled: input.enabled, scope: input.scope, scopeId: scopeId || null },
    });
    return toFeature(feature);
  }

  /** For diagnostics: each bot of a server with a whoami check of its token (when it has one). */
  async health(serverId: string): Promise<Record<string, unknown>> {
    const server = await this.servers.requireRow(serverId);
    const rows = await this.repository.listForServer(serverId);
    const entries = await Promise.all(
      rows.map(async (row) => {
        const record = this.toRecord(row, server);
        const errors: string[] = [];
        let tokenValid: boolean | null = null;
        if (row.access_token_enc !== null) {
          const token = this.openToken(row);
          if (token === undefined) {
            tokenValid = false;
            errors.push("The stored access token cannot be decrypted (the portal's key changed): set it again");
          } else {
            const outcome = await whoami(this.connector.tokenClient(server, token, BOT_CALL_TIMEOUT_MS));
            tokenValid =
              outcome.kind === "ok" ? outcome.userId === record.matrixUserId : outcome.kind === "refused" ? false : null;
            if (outcome.kind === "refused") errors.push(`The homeserver refused the bot's token (${outcome.errcode})`);
            if (outcome.kind === "unreachable") errors.push(`The homeserver could not be asked (${outcome.reason})`);
            if (outcome.kind === "ok" && !tokenValid)
              errors.push(`The token belongs to ${outcome.userId}, not ${record.matrixUserId}`);
          }
        } else if (row.status === "active") {
          errors.push("The bot is active but has no access token");
        }
        return [
          row.id,
          {
            displayName: row.display_name,
            matrixUserId: record.matrixUserId,
            status: row.status,
            enabled: row.enabled === 1,
            hasAccessToken: row.access_token_enc !== null,
            tokenValid,
            healthy: errors.length === 0,
            errors,
          },
        ] as const;
      }),
    );
    return Object.fromEntries(entries);
  }

  /**
   * `set_token`: asks the homeserver whose token it is. A token of another user, or one the homeserver refuses, is
   * not stored (400). When the homeserver cannot be asked, the token is stored unverified. The token is sealed (never
   * written in clear, never returned, never audited), then the bot's display name and avatar are pushed.
   */
  private async setToken(row: BotRow, server: ServerRow, token: string) {
    const expected = matrixUserId(row.localpart, server.server_name);
    const outcome: WhoamiOutcome = await whoami(this.connector.tokenClient(server, token, BOT_CALL_TIMEOUT_MS));
    if (outcome.kind === "refused") {
      throw new HttpError(
        400,
        `The homeserver refused this access token (${outcome.errcode}: ${outcome.message})`,
        outcome.errcode,
      );
    }
    if (outcome.kind === "ok" && outcome.userId !== expected) {
      throw badRequest(`This access token belongs to ${outcome.userId}, not to the bot ${expected}`);
    }
    const nowIso = this.isoNow();
    await this.repository.update(row.id, {
      access_token_enc: this.box.seal(token, botTokenContext(row.id)),
      token_set_at: nowIso,
      token_verified_at: outcome.kind === "ok" ? nowIso : null,
      updated_at: nowIso,
    });
    const tokenCheck: TokenCheck =
      outcome.kind === "ok"
        ? { verified: true, userId: outcome.userId }
        : { verified: false, reason: `The homeserver could not be asked (${outcome.reason}); the token is stored unverified` };
    const stored = (await this.repository.find(row.id)) as BotRow;
    const profileSync =
      outcome.kind === "ok" ? await this.pushProfile(stored, server) : { skipped: "the homeserver is unreachable" };
    return { bot: this.toRecord((await this.repository.find(row.id)) as BotRow, server), tokenCheck, profileSync };
  }

  /**
   * Pushes display name and avatar to the bot's homeserver profile with the bot's own token (a user may always set
   * their own profile). A refusal is reported, not thrown: the portal's record stands either way.
   */
  private async pushProfile(row: BotRow, server: ServerRow): Promise<ProfileSync> {
    const token = this.openToken(row);
    if (token === undefined) return { skipped: "the stored access token cannot be decrypted" };
    const client = this.connector.tokenClient(server, token, BOT_CALL_TIMEOUT_MS);
    const userId = matrixUserId(row.localpart, server.server_name);
    const displayname = await setProfileField(client, userId, "displayname", row.display_name);
    // An avatar removed in the portal is removed on the homeserver too.
    const avatar =
      row.avatar_url === null && row.profile_synced_at === null
        ? "skipped"
        : await setProfileField(client, userId, "avatar_url", row.avatar_url ?? "");
    if (displayname === "ok" && (avatar === "ok" || avatar === "skipped")) {
      await this.repository.update(row.id, { profile_synced_at: this.isoNow() });
    } else {
      this.log.warn({ botId: row.id, displayname, avatar }, "bot profile not fully pushed to the homeserver");
    }
    return { displayname, avatar_url: avatar };
  }

  private openToken(row: BotRow): string | undefined {
    if (row.access_token_enc === null) return undefined;
    try {
      return this.box.open(row.access_token_enc, botTokenContext(row.id));
    } catch (error) {
      if (error instanceof SecretBoxError) return undefined;
      throw error;
    }
  }

  private async requireBot(id: string, serverId?: string): Promise<{ row: BotRow; server: ServerRow }> {
    const row = await this.repository.find(id);
    if (!row || (serverId !== undefined && row.server_id !== serverId)) throw notFound(`No bot with id ${id}`);
    return { row, server: await this.servers.requireRow(row.server_id) };
  }

  private toRecord(row: BotRow, server: ServerRow): BotRecord {
    return {
      id: row.id,
      serverId: row.server_id,
      templateId: row.template_id,
      displayName: row.display_name,
      localpart: row.localpart,
      matrixUserId: matrixUserId(row.localpart, server.server_name),
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

  private isoNow(): string {
    return new Date(this.now()).toISOString();
  }
}
