import type { Dispatcher } from "undici";
import { HttpError } from "../../../lib/http-error.ts";
import type { Logger } from "../../../lib/logger.ts";
import { type SecretBox, SecretBoxError } from "../crypto/secret-box.ts";
import { MasConnector } from "../mas/mas-connector.ts";
import type { HomeserverOutcome } from "../metrics/portal-metrics.ts";
import { HomeserverClient } from "./homeserver-client.ts";
import type { OutboundPolicy } from "./outbound-policy.ts";

/** The secret box context of a server's admin token: the ciphertext only opens for the row it was sealed for. */
export const adminTokenContext = (serverId: string) => `managed-server:${serverId}:admin-token`;

/** What a client needs from a managed-server row. */
export interface ServerConnection {
  id: string;
  internal_url: string;
  admin_token_enc: string;
}

/**
 * Seals admin tokens and opens HTTP clients to managed servers with the decrypted token; `mas` does the same for the
 * MAS of servers whose accounts MAS manages (issue 23).
 */
export class HomeserverConnector {
  readonly mas: MasConnector;

  constructor(
    private readonly box: SecretBox,
    private readonly http: Dispatcher,
    private readonly outbound: OutboundPolicy,
    private readonly log: Logger,
    /** Told every homeserver call's outcome and duration (the portal's metrics). */
    private readonly observe?: (outcome: HomeserverOutcome, seconds: number) => void,
    /** The clock of MAS access-token expiry. */
    now: () => number = Date.now,
  ) {
    this.mas = new MasConnector(box, http, log, now, observe);
  }

  /**
   * Refuses (400 `OUTBOUND_DENIED`) an internal URL whose host the outbound rules refuse outright: an IP literal
   * in a refused range, a refused host name. Names are resolved only when connecting, where they are checked again.
   */
  assertAllowedUrl(internalUrl: string): void {
    const reason = this.outbound.refuseHost(new URL(internalUrl).hostname);
    if (reason !== undefined) throw new HttpError(400, `internalUrl: ${reason}`, "OUTBOUND_DENIED");
  }

  sealAdminToken(serverId: string, adminToken: string): string {
    return this.box.seal(adminToken, adminTokenContext(serverId));
  }

  /** A client for the server's internal URL without any token: client-server calls such as `/register`. */
  publicClient(server: ServerConnection, timeoutMs?: number): HomeserverClient {
    return new HomeserverClient(this.http, server.internal_url, undefined, this.log, timeoutMs, this.observe);
  }

  /**
   * A client for the server's internal URL that authenticates with another token (a bot's access token, an
   * appservice's `as_token`): calls with `admin: true` send it as the bearer token.
   */
  tokenClient(server: Pick<ServerConnection, "internal_url">, token: string, timeoutMs?: number): HomeserverClient {
    return new HomeserverClient(this.http, server.internal_url, token, this.log, timeoutMs, this.observe);
  }

  /**
   * Refuses (400 `OUTBOUND_DENIED`) a MAS URL whose host the outbound rules refuse outright, as for internal URLs.
   */
  assertAllowedMasUrl(masUrl: string): void {
    const reason = this.outbound.refuseHost(new URL(masUrl).hostname);
    if (reason !== undefined) throw new HttpError(400, `masUrl: ${reason}`, "OUTBOUND_DENIED");
  }

  /** A client for the server's internal URL, with its admin token decrypted for this use only. */
  client(server: ServerConnection, timeoutMs?: number): HomeserverClient {
    if (server.admin_token_enc === "") {
      // A MAS server saved without a Synapse admin token (migration 0011).
      throw new HttpError(409, "This server has no Synapse admin token (its accounts are managed by MAS)", "ADMIN_TOKEN_MISSING");
    }
    let token: string;
    try {
      token = this.box.open(server.admin_token_enc, adminTokenContext(server.id));
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      throw new HttpError(
        500,
        "The stored admin token of this server cannot be decrypted: the portal's secret key changed. Restore the key, or rotate the token.",
        "SECRET_UNREADABLE",
      );
    }
    return new HomeserverClient(this.http, server.internal_url, token, this.log, timeoutMs, this.observe);
  }
}
