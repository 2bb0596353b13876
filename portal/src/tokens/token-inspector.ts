import { HttpError } from "../../../lib/http-error.ts";
import type { Logger } from "../../../lib/logger.ts";
import type { HomeserverConnector } from "../homeserver/connector.ts";
import { HomeserverUnreachable } from "../homeserver/homeserver-client.ts";
import { RegistrationTokensApi } from "../homeserver/registration-tokens-api.ts";
import { homeserverUnavailable } from "../registration/sign-up-errors.ts";
import type { ServerRow } from "../servers/servers.repository.ts";
import { type TokenState, tokenState } from "./token-state.ts";

/**
 * What the portal can say about a registration token without using it:
 * - a {@link TokenState} (`valid`, `disabled`, `expired`, `exhausted`) from the server's token store;
 * - `unknown`: the store has no such token;
 * - `invalid`: only the server's public yes/no could be asked, and it said no (without a reason).
 */
export type TokenVerdict = TokenState | "unknown" | "invalid";

/** A token store's answer: its verdict, and when a valid token expires (ms since the epoch, null for never). */
export interface TokenInspection {
  state: Exclude<TokenVerdict, "invalid">;
  expiresAt: number | null;
  /**
   * The token has no usage limit (Synapse `uses_allowed: null`, MAS `usage_limit: null`): no sign-up can use it
   * up, so sign-ups with it need not wait for each other (registration.service.ts). False for an unknown token.
   */
  unlimited: boolean;
}

/**
 * How the portal looks at one registration token of a managed server without using it: the seam between the public
 * side (`POST /api/register/validate-token`, the checks before a sign-up) and the kind of server that holds the
 * tokens. One implementation per kind: {@link SynapseTokenInspector} asks Synapse's admin API; a server whose
 * tokens live elsewhere (MAS's admin API) gets its own, chosen per server row by the factory the registration
 * service is given. Nothing here may run a UIA stage or any other call that counts as a use.
 *
 * The portal's own disabled flag is checked by the caller, for every kind, before an inspector is asked.
 */
export interface TokenInspector {
  /**
   * The token store's verdict on `token` (already checked against the token alphabet), or undefined when the store
   * cannot be asked (no usable admin access): the caller may then fall back to {@link publicValidity}, or leave the
   * decision to the server's own sign-up.
   */
  inspect(server: ServerRow, token: string): Promise<TokenInspection | undefined>;
  /**
   * The server's public answer, true when the token can be used now (Synapse's rate-limited `/validity`): only a
   * fallback. Throws the visitor's 503 when the server cannot answer.
   */
  publicValidity(server: ServerRow, token: string): Promise<boolean>;
  /**
   * Servers whose accounts another service creates (MAS): where the person continues with a valid token; undefined
   * when it cannot be told now.
   */
  registerUrl?(server: ServerRow, token: string): Promise<string | undefined>;
}

/** Picks the inspector for a server, by its kind (`SynapseTokenInspector`, mas/mas-token-inspector.ts). */
export type TokenInspectorFor = (server: ServerRow) => TokenInspector;

/**
 * Synapse: the admin lookup `GET /_synapse/admin/v1/registration_tokens/<t>`, which has no rate limit, sees
 * `uses_allowed: 0` and gives the exact reason; `/_matrix/client/v1/register/m.login.registration_token/validity`
 * only as the fallback (rate limited per IP on the homeserver, and every call comes from the portal's address).
 * Neither consumes a use: Synapse counts a use only in the UIA token stage of `/register`.
 */
export class SynapseTokenInspector implements TokenInspector {
  constructor(
    private readonly connector: HomeserverConnector,
    private readonly now: () => number,
    private readonly log: Logger,
  ) {}

  async inspect(server: ServerRow, token: string): Promise<TokenInspection | undefined> {
    let found: Awaited<ReturnType<RegistrationTokensApi["get"]>>;
    try {
      found = await new RegistrationTokensApi(this.connector.client(server)).get(token);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      this.log.warn({ serverId: server.id, code: error.code }, "admin token lookup unavailable; the homeserver will decide");
      return undefined;
    }
    if (!found) return { state: "unknown", expiresAt: null, unlimited: false };
    return { state: tokenState(found, false, this.now()), expiresAt: found.expiry_time, unlimited: found.uses_allowed === null };
  }

  async publicValidity(server: ServerRow, token: string): Promise<boolean> {
    try {
      const response = await this.connector
        .publicClient(server)
        .call("GET", "/_matrix/client/v1/register/m.login.registration_token/validity", { query: { token } });
      if (response.status === 200 && typeof response.body.valid === "boolean") return response.body.valid;
      this.log.warn({ serverId: server.id, status: response.status }, "token validity endpoint refused");
    } catch (error) {
      if (!(error instanceof HomeserverUnreachable)) throw error;
    }
    throw homeserverUnavailable();
  }
}
