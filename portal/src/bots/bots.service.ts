import { randomUUID } from "node:crypto";
import { badRequest, conflict, notFound } from "../../../lib/http-error.ts";
import type { Logger } from "../../../lib/logger.ts";
import type { AuditActor, AuditService } from "../audit/audit.service.ts";
import type { SecretBox } from "../crypto/secret-box.ts";
import { uniqueViolation } from "../db/constraints.ts";
import type { HomeserverConnector } from "../homeserver/connector.ts";
import type { ServerRow } from "../servers/servers.repository.ts";
import type { ServersService } from "../servers/servers.service.ts";
import { BotMatrixAccount, type ProfileSync, type TokenCheck } from "./bot-account.ts";
import {
  type BotDetail,
  type BotRecord,
  type FeatureRecord,
  localpartFrom,
  matrixUserId,
  type RoomAssignmentRecord,
  toBotRecord,
  toFeature,
  toRoom,
} from "./bot-records.ts";
import { checkBotSettings, describeProblem } from "./bot-settings.ts";
import { type BotTemplate, findTemplate } from "./bot-templates.ts";
import type { BotFeatureRow, BotRoomRow, BotRow, BotsRepository } from "./bots.repository.ts";
import type { AssignRoomInput, BotAction, CreateBotInput, FeatureToggleInput, UpdateBotInput } from "./bots.schema.ts";
import { FEATURE_KEYS } from "./feature-keys.ts";

/**
 * A bot's config checked against its template's settings (bot-settings.ts), the settings left out at their defaults;
 * 400 naming every field that does not fit. A free-form template (or one no longer in the catalog) takes any object.
 */
function settingsOf(template: BotTemplate | undefined, config: Record<string, unknown>): Record<string, unknown> {
  if (!template?.settings) return { ...structuredClone(template?.defaultConfig ?? {}), ...config };
  const checked = checkBotSettings(template.settings, config);
  const problems = Object.entries(checked.problems);
  if (problems.length > 0) {
    throw badRequest(`Invalid config: ${problems.map(([path, problem]) => `${path} ${describeProblem(problem)}`).join("; ")}`);
  }
  return checked.config;
}

/**
 * Bots of a managed server: template catalog, CRUD, room assignments, feature toggles, activation, and the access
 * token (sealed; checked with whoami when the homeserver answers; used to push the bot's display name and avatar).
 */
export class BotsService {
  private readonly account: BotMatrixAccount;

  constructor(
    private readonly repository: BotsRepository,
    private readonly servers: ServersService,
    box: SecretBox,
    connector: HomeserverConnector,
    private readonly audit: AuditService,
    private readonly now: () => number,
    log: Logger,
  ) {
    this.account = new BotMatrixAccount(repository, box, connector, now, log);
  }

  async list(serverId: string): Promise<BotRecord[]> {
    const server = await this.servers.requireRow(serverId);
    return (await this.repository.listForServer(serverId)).map((row) => toBotRecord(row, server.server_name));
  }

  async get(id: string, serverId?: string): Promise<BotDetail> {
    const { row, server } = await this.requireBot(id, serverId);
    const [rooms, features] = await Promise.all([this.repository.listRooms(id), this.repository.listFeatures(id)]);
    return {
      ...toBotRecord(row, server.server_name),
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
      config: JSON.stringify(settingsOf(template, input.config ?? {})),
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
    return toBotRecord(row, server.server_name);
  }

  /** Changes display name, avatar and/or config; a bot with a token gets the new name and avatar on its profile. */
  async update(id: string, input: UpdateBotInput, actor: AuditActor): Promise<{ bot: BotRecord; profileSync?: ProfileSync }> {
    const { row, server } = await this.requireBot(id);
    const changes: Parameters<BotsRepository["update"]>[1] = { updated_at: this.isoNow() };
    if (input.displayName !== undefined) changes.display_name = input.displayName;
    if (input.avatarUrl !== undefined) changes.avatar_url = input.avatarUrl;
    if (input.config !== undefined) changes.config = JSON.stringify(settingsOf(findTemplate(row.template_id), input.config));
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
    if (!profileChanged || updated.access_token_enc === null) return { bot: toBotRecord(updated, server.server_name) };
    const profileSync = await this.account.pushProfile(updated, server);
    return { bot: toBotRecord((await this.repository.find(id)) as BotRow, server.server_name), profileSync };
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
        return this.account.setToken(row, server, action.accessToken);
    }
    return { bot: toBotRecord((await this.repository.find(id)) as BotRow, server.server_name) };
  }

  /** For diagnostics: each bot of a server with a whoami check of its token (when it has one). */
  async health(serverId: string): Promise<Record<string, unknown>> {
    const server = await this.servers.requireRow(serverId);
    return this.account.health(server, await this.repository.listForServer(serverId));
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

  private async requireBot(id: string, serverId?: string): Promise<{ row: BotRow; server: ServerRow }> {
    const row = await this.repository.find(id);
    if (!row || (serverId !== undefined && row.server_id !== serverId)) throw notFound(`No bot with id ${id}`);
    return { row, server: await this.servers.requireRow(row.server_id) };
  }

  private isoNow(): string {
    return new Date(this.now()).toISOString();
  }
}
