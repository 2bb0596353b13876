import { HttpError } from "../../../lib/http-error.ts";
import type { Logger } from "../../../lib/logger.ts";
import type { HomeserverConnector } from "../homeserver/connector.ts";
import { type TokenBackend, tokenBackendFor } from "../homeserver/token-backend.ts";
import { homeserverUnavailable } from "../registration/sign-up-errors.ts";
import type { ServerRow } from "../servers/servers.repository.ts";
import type { TokenInspection, TokenInspector } from "../tokens/token-inspector.ts";

/**
 * A MAS server's tokens, looked at without using them: `GET /api/admin/v1/user-registration-tokens/{id}` (a read;
 * MAS counts a use only when its registration creates the account), judged by MAS's own rule (revoked is
 * `disabled`). MAS has no public validity endpoint, so when its admin API cannot be asked, nobody can tell: 503 for
 * the visitor. Where the person continues (MAS's `invite_url`, or `/register?token=`) comes from here too.
 */
export class MasTokenInspector implements TokenInspector {
  constructor(
    private readonly connector: HomeserverConnector,
    private readonly now: () => number,
    private readonly log: Logger,
  ) {}

  async inspect(server: ServerRow, token: string): Promise<TokenInspection | undefined> {
    let backend: TokenBackend;
    let found: Awaited<ReturnType<TokenBackend["get"]>>;
    try {
      backend = this.backendFor(server);
      found = await backend.get(token);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      this.log.warn({ serverId: server.id, code: error.code }, "MAS token lookup unavailable");
      return undefined;
    }
    if (!found) return { state: "unknown", expiresAt: null, unlimited: false };
    return {
      state: backend.state(found, false, this.now()),
      expiresAt: found.expiry_time,
      unlimited: found.uses_allowed === null,
    };
  }

  async publicValidity(): Promise<boolean> {
    throw homeserverUnavailable();
  }

  /** Where the person signs up on MAS with `token`; undefined when MAS cannot be asked. */
  async registerUrl(server: ServerRow, token: string): Promise<string | undefined> {
    try {
      return await this.backendFor(server).registerUrl?.(token);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      return undefined;
    }
  }

  private backendFor(server: ServerRow): TokenBackend {
    return tokenBackendFor(server, () => this.connector.client(server), this.connector.mas);
  }
}
