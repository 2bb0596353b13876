import type { Dispatcher } from "undici";
import { HttpError } from "../../../lib/http-error.ts";
import type { Logger } from "../../../lib/logger.ts";
import { type SecretBox, SecretBoxError } from "../crypto/secret-box.ts";
import {
  type CallOptions,
  type CallPath,
  HomeserverClient,
  type HomeserverResponse,
  HomeserverUnreachable,
} from "../homeserver/homeserver-client.ts";
import type { HomeserverOutcome } from "../metrics/portal-metrics.ts";
import { type CachedAccessToken, MasAccessTokens, refreshAt } from "./mas-access-tokens.ts";
import { grantFailed, masUnreachable, noMas, oauthError } from "./mas-errors.ts";
import { MasTokenIds } from "./mas-token-ids.ts";

/** The scope of MAS's admin API. */
export const MAS_ADMIN_SCOPE = "urn:mas:admin";

/** The secret box context of a server's MAS client secret: the ciphertext only opens for the row it was sealed for. */
export const masSecretContext = (serverId: string) => `managed-server:${serverId}:mas-client-secret`;

/** What a MAS client needs from a managed-server row. */
export interface MasConnection {
  id: string;
  mas_url: string | null;
  mas_client_id: string | null;
  mas_client_secret_enc: string | null;
}

/** The MAS settings of a row as one string: a change of any of them never reuses what was cached for the old ones. */
export const masVersion = (server: MasConnection) => `${server.mas_url} ${server.mas_client_id} ${server.mas_client_secret_enc}`;

/**
 * Seals MAS client secrets and opens admin API clients to a managed server's MAS, with access tokens obtained by the
 * OAuth 2.0 client credentials grant (`urn:mas:admin`) and cached in memory ({@link MasAccessTokens}).
 */
export class MasConnector {
  readonly accessTokens: MasAccessTokens;
  /** Token string → MAS id per server: MAS's admin API cannot look a token up by its string. */
  readonly tokenIds = new MasTokenIds();

  constructor(
    private readonly box: SecretBox,
    private readonly http: Dispatcher,
    private readonly log: Logger,
    now: () => number,
    private readonly observe?: (outcome: HomeserverOutcome, seconds: number) => void,
  ) {
    this.accessTokens = new MasAccessTokens(now);
    this.now = now;
  }

  private readonly now: () => number;

  sealClientSecret(serverId: string, secret: string): string {
    return this.box.seal(secret, masSecretContext(serverId));
  }

  /** An admin API client for the server's MAS (409 `MAS_NOT_CONFIGURED` when the server has no MAS settings). */
  client(server: MasConnection, timeoutMs?: number): MasAdminClient {
    const { id, mas_url, mas_client_id, mas_client_secret_enc } = server;
    if (!mas_url || !mas_client_id || !mas_client_secret_enc) {
      throw new HttpError(
        409,
        "This server has no MAS URL, client id and client secret: edit the server first",
        "MAS_NOT_CONFIGURED",
      );
    }
    return new MasAdminClient(this, { id, mas_url, mas_client_id, mas_client_secret_enc }, timeoutMs);
  }

  /** A client for `baseUrl` without any token (the OAuth token endpoint, discovery). */
  httpClient(baseUrl: string, token?: string, timeoutMs?: number): HomeserverClient {
    return new HomeserverClient(this.http, baseUrl, token, this.log, timeoutMs, this.observe);
  }

  /** The client secret, decrypted for this use only. */
  openClientSecret(server: { id: string; mas_client_secret_enc: string }): string {
    try {
      return this.box.open(server.mas_client_secret_enc, masSecretContext(server.id));
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      throw new HttpError(
        500,
        "The stored MAS client secret of this server cannot be decrypted: the portal's secret key changed. Restore the key, or set the secret again.",
        "SECRET_UNREADABLE",
      );
    }
  }

  /**
   * The client credentials grant at `<MAS URL>/oauth2/token`: `client_secret_basic` first (MAS's usual client method),
   * and `client_secret_post` once if MAS answers `invalid_client` to that, remembering which one worked. Failures are
   * HttpErrors that name the part of MAS's configuration to fix (mas-errors.ts).
   */
  async grant(
    server: { id: string; mas_url: string; mas_client_id: string; mas_client_secret_enc: string },
    timeoutMs: number | undefined,
    previous?: CachedAccessToken,
  ): Promise<CachedAccessToken> {
    const secret = this.openClientSecret(server);
    const http = this.httpClient(server.mas_url, undefined, timeoutMs);
    const methods: CachedAccessToken["method"][] =
      previous?.method === "client_secret_post"
        ? ["client_secret_post", "client_secret_basic"]
        : ["client_secret_basic", "client_secret_post"];
    let response: HomeserverResponse | undefined;
    for (const method of methods) {
      const grantedAt = this.now();
      response = await this.tokenRequest(http, method, server.mas_client_id, secret);
      const token = response.body.access_token;
      if (response.status === 200 && typeof token === "string" && token !== "") {
        const expiresIn = typeof response.body.expires_in === "number" ? response.body.expires_in : undefined;
        return { token, refreshAt: refreshAt(grantedAt, expiresIn), method };
      }
      if (response.status === 200) throw noMas();
      if (oauthError(response)?.error !== "invalid_client") break;
    }
    this.log.warn(
      { serverId: server.id, status: response?.status, error: response?.body.error },
      "MAS refused the client credentials grant",
    );
    throw grantFailed(response as HomeserverResponse);
  }

  private async tokenRequest(
    http: HomeserverClient,
    method: CachedAccessToken["method"],
    clientId: string,
    secret: string,
  ): Promise<HomeserverResponse> {
    const form: Record<string, string> = { grant_type: "client_credentials", scope: MAS_ADMIN_SCOPE };
    const options: CallOptions = { form };
    if (method === "client_secret_basic") {
      // RFC 6749 §2.3.1: both halves form-url-encoded before Base64.
      const encode = (part: string) => encodeURIComponent(part).replace(/%20/g, "+");
      options.headers = { authorization: `Basic ${Buffer.from(`${encode(clientId)}:${encode(secret)}`).toString("base64")}` };
    } else {
      Object.assign(form, { client_id: clientId, client_secret: secret });
    }
    try {
      return await http.call("POST", "/oauth2/token", options);
    } catch (error) {
      if (error instanceof HomeserverUnreachable) throw masUnreachable(error);
      throw error;
    }
  }
}

/**
 * Calls to one server's MAS admin API with the server's cached access token. A 401 means MAS no longer takes the
 * token (expired early, session finished, client removed): the token is dropped, a new one granted and the call
 * made once more. MAS checks the token before anything else of a request, so repeating a refused call, a POST
 * included, cannot do anything twice.
 */
export class MasAdminClient {
  constructor(
    private readonly connector: MasConnector,
    private readonly server: { id: string; mas_url: string; mas_client_id: string; mas_client_secret_enc: string },
    private readonly timeoutMs?: number,
  ) {}

  get baseUrl(): string {
    return this.server.mas_url;
  }

  async call<P extends string>(
    method: Dispatcher.HttpMethod,
    path: CallPath<P>,
    options: CallOptions = {},
  ): Promise<HomeserverResponse> {
    const first = await this.token();
    const response = await this.send(first.token, method, path, options);
    if (response.status !== 401) return response;
    this.connector.accessTokens.drop(this.server.id, first.token);
    const second = await this.token();
    return this.send(second.token, method, path, options);
  }

  private token(): Promise<CachedAccessToken> {
    return this.connector.accessTokens.get(this.server.id, masVersion(this.server), (previous) =>
      this.connector.grant(this.server, this.timeoutMs, previous),
    );
  }

  private send<P extends string>(
    token: string,
    method: Dispatcher.HttpMethod,
    path: CallPath<P>,
    options: CallOptions,
  ): Promise<HomeserverResponse> {
    return this.connector.httpClient(this.server.mas_url, token, this.timeoutMs).call(method, path, { ...options, admin: true });
  }
}
