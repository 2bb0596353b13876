import { badRequest, HttpError } from "../../../lib/http-error.ts";
import type { Logger } from "../../../lib/logger.ts";
import { type SecretBox, SecretBoxError } from "../crypto/secret-box.ts";
import type { HomeserverConnector } from "../homeserver/connector.ts";
import { type ProfileFieldOutcome, setProfileField, type WhoamiOutcome, whoami } from "../homeserver/matrix-identity.ts";
import type { ServerRow } from "../servers/servers.repository.ts";
import { matrixUserId, toBotRecord } from "./bot-records.ts";
import type { BotRow, BotsRepository } from "./bots.repository.ts";

/** The secret box context of a bot's access token: the ciphertext only opens for this bot. */
export const botTokenContext = (botId: string) => `bot:${botId}:access-token`;

/** Each homeserver check of a bot (whoami, profile) has this long. */
const BOT_CALL_TIMEOUT_MS = 5_000;

/** The result of pushing the bot's profile: one outcome per field, or `skipped` with the reason. */
export type ProfileSync = { displayname: ProfileFieldOutcome; avatar_url: ProfileFieldOutcome | "skipped" } | { skipped: string };

/** The result of checking a new token with whoami. */
export type TokenCheck = { verified: true; userId: string } | { verified: false; reason: string };

/**
 * A bot's Matrix account as the portal reaches it: the sealed access token (checked with whoami), the profile
 * (display name, avatar) pushed with the bot's own token, and the per-bot health for diagnostics.
 */
export class BotMatrixAccount {
  constructor(
    private readonly repository: BotsRepository,
    private readonly box: SecretBox,
    private readonly connector: HomeserverConnector,
    private readonly now: () => number,
    private readonly log: Logger,
  ) {}

  /** For diagnostics: each bot of a server with a whoami check of its token (when it has one). */
  async health(server: ServerRow, rows: readonly BotRow[]): Promise<Record<string, unknown>> {
    const entries = await Promise.all(
      rows.map(async (row) => {
        const userId = matrixUserId(row.localpart, server.server_name);
        const errors: string[] = [];
        let tokenValid: boolean | null = null;
        if (row.access_token_enc !== null) {
          const token = this.openToken(row);
          if (token === undefined) {
            tokenValid = false;
            errors.push("The stored access token cannot be decrypted (the portal's key changed): set it again");
          } else {
            const outcome = await whoami(this.connector.tokenClient(server, token, BOT_CALL_TIMEOUT_MS));
            tokenValid = outcome.kind === "ok" ? outcome.userId === userId : outcome.kind === "refused" ? false : null;
            if (outcome.kind === "refused") errors.push(`The homeserver refused the bot's token (${outcome.errcode})`);
            if (outcome.kind === "unreachable") errors.push(`The homeserver could not be asked (${outcome.reason})`);
            if (outcome.kind === "ok" && !tokenValid) errors.push(`The token belongs to ${outcome.userId}, not ${userId}`);
          }
        } else if (row.status === "active") {
          errors.push("The bot is active but has no access token");
        }
        return [
          row.id,
          {
            displayName: row.display_name,
            matrixUserId: userId,
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
  async setToken(row: BotRow, server: ServerRow, token: string) {
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
    return { bot: toBotRecord((await this.repository.find(row.id)) as BotRow, server.server_name), tokenCheck, profileSync };
  }

  /**
   * Pushes display name and avatar to the bot's homeserver profile with the bot's own token (a user may always set
   * their own profile). A refusal is reported, not thrown: the portal's record stands either way.
   */
  async pushProfile(row: BotRow, server: ServerRow): Promise<ProfileSync> {
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

  private isoNow(): string {
    return new Date(this.now()).toISOString();
  }
}
