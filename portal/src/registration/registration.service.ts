import { HttpError } from "../../../lib/http-error.ts";
import type { Logger } from "../../../lib/logger.ts";
import type { HomeserverConnector } from "../homeserver/connector.ts";
import { HomeserverUnreachable } from "../homeserver/homeserver-client.ts";
import { homeserverPath } from "../homeserver/homeserver-path.ts";
import { type PortalLimiters, tooManyRequests } from "../rate-limit/rate-limiter.ts";
import type { ServerResolver } from "../servers/server-resolver.ts";
import type { ServerRow } from "../servers/servers.repository.ts";
import type { TokenInspection, TokenInspectorFor, TokenVerdict } from "../tokens/token-inspector.ts";
import type { TokensRepository } from "../tokens/tokens.repository.ts";
import { masCreatesAccounts } from "./mas-sign-up.ts";
import type { RegistrationsRepository } from "./registration.repository.ts";
import { parseRegistration, type RegisterInput } from "./registration.schema.ts";
import { homeserverUnavailable, tokenRefused } from "./sign-up-errors.ts";
import type { TokenClaims } from "./token-claims.ts";
import { registerAccount } from "./uia-driver.ts";
import { checkUsername, MAX_USER_ID, type UsernameVerdict } from "./username-availability.ts";

/**
 * Synapse's registration-token alphabet; `.` and `..` also fit it but, as a path segment, would resolve to another
 * admin endpoint (issue 16 item 6): no homeserver call is made for them.
 */
const TOKEN_SYNTAX = /^(?!\.{1,2}$)[A-Za-z0-9._~-]{1,64}$/;

const REFUSALS = {
  disabled: "This registration token has been disabled.",
  expired: "This registration token has expired.",
  exhausted: "This registration token has no uses left.",
  unknown: "This registration token is not valid. Please check it and try again.",
} as const;

/**
 * `POST /api/register/validate-token`: `valid` as the portal spec has it, plus why (`state`) and, for a valid token,
 * when it expires (ms since the epoch, null for never), so an invite page can say it plainly before anyone types.
 * Nothing about uses (`pending`, `completed`) is told to visitors.
 */
export interface TokenValidity {
  valid: boolean;
  state: TokenVerdict;
  expiresAt: number | null;
  /** Servers of kind `mas`, valid tokens: where the person continues, on MAS (issue 23). */
  registerUrl?: string;
}

/**
 * Why the portal refuses a token it inspected, `null` when it accepts it, undefined when it could not tell (no
 * usable admin API: the homeserver decides).
 */
const refusalOf = (inspection: TokenInspection | undefined): string | null | undefined =>
  inspection && (inspection.state === "valid" ? null : REFUSALS[inspection.state]);

const verdict = (state: TokenVerdict, expiresAt: number | null = null): TokenValidity => ({
  valid: state === "valid",
  state,
  expiresAt: state === "valid" ? expiresAt : null,
});

/** Public sign-up and token validation against the resolved managed server. */
export class RegistrationService {
  constructor(
    private readonly resolver: ServerResolver,
    private readonly connector: HomeserverConnector,
    private readonly tokens: TokensRepository,
    private readonly registrations: RegistrationsRepository,
    private readonly limiters: PortalLimiters,
    private readonly now: () => number,
    private readonly log: Logger,
    /** Told after every sign-up attempt that reached the homeserver: a token's use counts may have changed. */
    private readonly tokenUsed: (serverId: string) => Promise<void> = async () => {},
    /** How to look at a server's tokens without using them (one inspector per kind of server). */
    private readonly inspectorFor: TokenInspectorFor,
    /** One sign-up at a time per token, across every instance on the database. */
    private readonly claims: TokenClaims,
  ) {}

  /**
   * `POST /api/register`: rate limit (per IP, every attempt counts), validation, server, the portal's own token
   * checks (disabled flag, then the admin API's view), then the homeserver's UIA flow. Sign-ups with a limited token
   * (or one the portal cannot inspect) run one at a time on every instance of the database together
   * (token-claims.ts), so a token with one use left yields exactly one account however many visitors race for it,
   * through however many instances. A valid token without a usage limit cannot be used up: its sign-ups skip the
   * claim and run side by side (issue 24: a wave on one shared invitation). Should an admin give it a limit
   * mid-wave, sign-ups that already passed this check may still complete; Synapse's own pending/completed
   * accounting still refuses any beyond the new limit.
   */
  async register(body: unknown, ip: string): Promise<{ userId: string }> {
    const wait = await this.limiters.registration.consume(ip);
    if (wait > 0)
      throw tooManyRequests(wait, "Too many sign-up attempts from this address. Please try again in {wait}.", "M_LIMIT_EXCEEDED");
    const input = parseRegistration(body);
    const server = await this.openServer(input.serverId);
    if (server.kind === "mas") throw masCreatesAccounts();
    if (`@${input.username}:${server.server_name}`.length > MAX_USER_ID) {
      throw new HttpError(400, "The username is too long for this server.", "M_INVALID_USERNAME");
    }
    if (!TOKEN_SYNTAX.test(input.token)) throw tokenRefused(REFUSALS.unknown);
    const inspection = await this.inspect(server, input.token);
    // A refusal uses nothing: it needs no claim, and the admin API was asked once.
    const refusal = refusalOf(inspection);
    if (refusal) throw tokenRefused(refusal);
    if (inspection?.state === "valid" && inspection.unlimited) return { userId: await this.signUp(server, input, inspection) };
    // Inspected again under the claim: another sign-up may have used the token's last use meanwhile.
    const userId = await this.claims.run(server.id, input.token, () => this.signUp(server, input));
    return { userId };
  }

  /**
   * `POST /api/register/validate-token`: the portal's verdict, consuming nothing (no UIA stage is run, see
   * TokenInspector). Falls back to the server's public yes/no (`invalid` without a reason) when its token store
   * cannot be asked.
   */
  async validateToken(input: { token: string; serverId?: string | undefined }, ip: string): Promise<TokenValidity> {
    const wait = await this.limiters.tokenValidation.consume(ip);
    if (wait > 0)
      throw tooManyRequests(wait, "Too many token checks from this address. Please try again in {wait}.", "M_LIMIT_EXCEEDED");
    const server = await this.openServer(input.serverId);
    const token = input.token.trim();
    if (!TOKEN_SYNTAX.test(token)) return verdict("unknown");
    const inspection = await this.inspect(server, token);
    if (inspection && server.kind === "mas" && inspection.state === "valid") {
      // MAS creates the account: the page sends the person there, with the token in the link.
      const registerUrl = await this.inspectorFor(server).registerUrl?.(server, token);
      if (!registerUrl) throw homeserverUnavailable();
      return { ...verdict(inspection.state, inspection.expiresAt), registerUrl };
    }
    if (inspection) return verdict(inspection.state, inspection.expiresAt);
    return verdict((await this.inspectorFor(server).publicValidity(server, token)) ? "valid" : "invalid");
  }

  /**
   * `GET /api/register/username-available`: whether a username can be registered, for the sign-up page's live hint.
   * Rate limited per IP (it can tell taken names apart, as Synapse's public `/register/available` does).
   */
  async usernameAvailable(input: { username: string; serverId?: string | undefined }, ip: string): Promise<UsernameVerdict> {
    const wait = await this.limiters.usernameCheck.consume(ip);
    if (wait > 0)
      throw tooManyRequests(wait, "Too many username checks from this address. Please try again in {wait}.", "M_LIMIT_EXCEEDED");
    const server = await this.openServer(input.serverId);
    // MAS checks usernames in its own registration; the homeserver has no availability endpoint under MAS.
    if (server.kind === "mas") throw masCreatesAccounts();
    return checkUsername(this.connector, server, input.username);
  }

  /** The server a public request means (404 unknown, 403 disabled), refusing it when its registration is closed. */
  private async openServer(serverId: string | undefined): Promise<ServerRow> {
    const server = await this.resolver.resolve({ serverId });
    if (server.registration_mode === "closed") throw new HttpError(403, "Registration is closed on this server.", "M_FORBIDDEN");
    return server;
  }

  /** Checks the token (or takes `inspection`, made just before) and runs the UIA flow. */
  private async signUp(server: ServerRow, input: RegisterInput, inspection?: TokenInspection): Promise<string> {
    const refusal = refusalOf(inspection ?? (await this.inspect(server, input.token)));
    if (refusal) throw tokenRefused(refusal);
    // The UIA flow is a client-server call: it never needs (and must never carry) the admin token.
    let userId: string;
    try {
      userId = await registerAccount(this.connector.publicClient(server), input, this.log);
    } finally {
      // Failed or not: a flow that timed out may still have used the token on the homeserver.
      await this.tokenUsed(server.id);
    }
    await this.registrations.insert({ server_id: server.id, user_id: userId, created_at: new Date(this.now()).toISOString() });
    this.log.info({ serverId: server.id, userId }, "account registered");
    if (input.displayName) await this.setDisplayName(server, userId, input.displayName);
    return userId;
  }

  /**
   * The portal's view of a token: its own disabled flag first (Synapse servers; on MAS revocation is the only flag,
   * as in the admin list), then the server's token store through the inspector; undefined when the store cannot be
   * asked.
   */
  private async inspect(server: ServerRow, token: string): Promise<TokenInspection | undefined> {
    const metadata = server.kind === "mas" ? undefined : await this.tokens.find(server.id, token);
    if (metadata?.disabled === 1) return { state: "disabled", expiresAt: null, unlimited: false };
    return this.inspectorFor(server).inspect(server, token);
  }

  /**
   * Sets the new account's display name with the admin token (Synapse lets a server admin change a local user's
   * profile). Best effort: the account exists either way, so a failure is logged, not returned.
   */
  private async setDisplayName(server: ServerRow, userId: string, displayName: string): Promise<void> {
    try {
      const response = await this.connector
        .client(server)
        .call("PUT", homeserverPath`/_matrix/client/v3/profile/${userId}/displayname`, {
          admin: true,
          body: { displayname: displayName },
        });
      if (response.status !== 200) this.log.warn({ userId, status: response.status }, "display name not set");
    } catch (error) {
      if (!(error instanceof HomeserverUnreachable || error instanceof HttpError)) throw error;
      this.log.warn({ userId }, "display name not set: homeserver unavailable");
    }
  }
}
