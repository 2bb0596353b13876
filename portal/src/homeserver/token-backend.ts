import { HttpError } from "../../../lib/http-error.ts";
import type { MasConnection, MasConnector } from "../mas/mas-connector.ts";
import { masVersion } from "../mas/mas-connector.ts";
import {
  MAS_MAX_USAGE_LIMIT,
  type MasRegistrationToken,
  type MasTokenFilter,
  MasTokensApi,
  masRegisterUrl,
  noDeleteOnMas,
} from "../mas/mas-tokens-api.ts";
import { readableToken } from "../tokens/readable-token.ts";
import { masTokenState, type TokenState, tokenState } from "../tokens/token-state.ts";
import type { HomeserverClient } from "./homeserver-client.ts";
import { type HomeserverToken, RegistrationTokensApi } from "./registration-tokens-api.ts";

/** Who holds a managed server's accounts and registration tokens (servers.kind). */
export type ServerKind = "synapse" | "mas";

/**
 * A registration token in the portal's terms: Synapse's fields (`uses_allowed`, `pending`, `completed`,
 * `expiry_time` in ms). A MAS token maps `usage_limit` → `uses_allowed`, `times_used` → `completed`, `expires_at` →
 * `expiry_time`, `pending` 0 (MAS has none), and adds MAS's own times, in ms.
 */
export interface ServerToken extends HomeserverToken {
  /** MAS servers only: when MAS revoked the token (ms), null when it is not revoked. */
  revoked_at?: number | null;
  /** MAS servers only: when MAS created it (ms). */
  created_at?: number | null;
  /** MAS servers only: when an account was last created with it (ms). */
  last_used_at?: number | null;
}

/** A page of tokens: `next` is the opaque cursor of the following page (null on the last). */
export interface TokenPage {
  tokens: ServerToken[];
  next: string | null;
  total: number;
}

/**
 * The one seam between the portal and wherever a managed server keeps its registration tokens: Synapse's admin API
 * (`kind: synapse`) or MAS's (`kind: mas`). Refusals are HttpErrors in the portal's words; lookups answer undefined
 * for a token the server does not know.
 */
export interface TokenBackend {
  readonly kind: ServerKind;
  /** Whether the portal's own disabled flag counts (Synapse, where `uses_allowed: 0` is no off switch) or not (MAS). */
  readonly localDisable: boolean;
  /** Every token. */
  all(): Promise<ServerToken[]>;
  /** One page of the tokens in `state` (all without), from the server's own filters and cursors where it has them. */
  page?(query: { state?: TokenState; limit: number; after?: string }): Promise<TokenPage>;
  /** Reads one token without using it. */
  get(token: string): Promise<ServerToken | undefined>;
  /** `token` as given, or generated (`length` characters) when absent. */
  create(input: {
    token?: string;
    length: number;
    uses_allowed: number | null;
    expiry_time: number | null;
  }): Promise<ServerToken>;
  update(token: string, fields: { uses_allowed?: number | null; expiry_time?: number | null }): Promise<ServerToken | undefined>;
  /** Switches a token off: Synapse `uses_allowed: 0`, MAS revoke. */
  disable(token: string): Promise<ServerToken | undefined>;
  /** Switches it on again where the server can undo `disable` (MAS unrevoke); Synapse needs a new limit instead. */
  enable(token: string): Promise<ServerToken | undefined>;
  /** False when the server did not know the token. */
  delete(token: string): Promise<boolean>;
  /** Whether a sign-up could use the token now (`disabledLocally`: the portal's flag, where it counts). */
  state(token: ServerToken, disabledLocally: boolean, now: number): TokenState;
  /** MAS servers: where a person signs up with this token (MAS's `invite_url`, else `<MAS>/register?token=`). */
  registerUrl?(token: string): Promise<string | undefined>;
}

/** Synapse's registration-token admin API behind the seam. */
export class SynapseTokenBackend implements TokenBackend {
  readonly kind = "synapse";
  readonly localDisable = true;
  private readonly api: RegistrationTokensApi;

  constructor(client: HomeserverClient) {
    this.api = new RegistrationTokensApi(client);
  }

  all = () => this.api.list();
  get = (token: string) => this.api.get(token);
  create(input: { token?: string; length: number; uses_allowed: number | null; expiry_time: number | null }) {
    const explicit = input.token ? { token: input.token } : { length: input.length };
    return this.api.create({ ...explicit, uses_allowed: input.uses_allowed, expiry_time: input.expiry_time });
  }
  update = (token: string, fields: { uses_allowed?: number | null; expiry_time?: number | null }) =>
    this.api.update(token, fields);
  /** `uses_allowed: 0`: Synapse would still accept the token at sign-up, hence the portal's own flag as well. */
  disable = (token: string) => this.api.update(token, { uses_allowed: 0 });
  enable(): Promise<ServerToken | undefined> {
    throw new HttpError(
      400,
      "On a Synapse server a disabled token is enabled again by giving it a usage limit: PUT uses_allowed (a number, or null for unlimited)",
      "USES_ALLOWED_REQUIRED",
    );
  }
  delete = (token: string) => this.api.delete(token);
  state = (token: ServerToken, disabledLocally: boolean, now: number) => tokenState(token, disabledLocally, now);
}

/** A MAS token in the portal's terms. */
function fromMas(token: MasRegistrationToken): ServerToken {
  return {
    token: token.token,
    uses_allowed: token.usage_limit,
    pending: 0,
    completed: token.times_used,
    expiry_time: token.expires_at,
    revoked_at: token.revoked_at,
    created_at: token.created_at,
    last_used_at: token.last_used_at,
  };
}

/**
 * MAS's filters for a portal state. MAS's `expired` is `expires_at < now` where the portal's state says `<=`: a token
 * listed in the instant of its expiry can land in the neighbouring page of another state.
 */
const MAS_FILTERS: Record<TokenState, MasTokenFilter> = {
  valid: { valid: true },
  disabled: { revoked: true },
  expired: { revoked: false, expired: true },
  exhausted: { valid: false, revoked: false, expired: false },
};

/** MAS's user registration token admin API behind the seam (issue 23); "disable" is MAS's revoke. */
export class MasTokenBackend implements TokenBackend {
  readonly kind = "mas";
  readonly localDisable = false;

  constructor(
    private readonly api: MasTokensApi,
    /** MAS's URL for browsers, for `/register` links. */
    private readonly publicUrl: string,
  ) {}

  async all(): Promise<ServerToken[]> {
    return (await this.api.all()).map(fromMas);
  }

  async page(query: { state?: TokenState; limit: number; after?: string }): Promise<TokenPage> {
    const found = await this.api.page(query.state ? MAS_FILTERS[query.state] : {}, query.limit, query.after);
    return { tokens: found.tokens.map(fromMas), next: found.next, total: found.total ?? found.tokens.length };
  }

  async get(token: string): Promise<ServerToken | undefined> {
    const found = await this.api.find(token);
    return found && fromMas(found);
  }

  /**
   * MAS would generate 12 characters; the portal generates `length` itself (the readable alphabet of its own
   * generated tokens: letters and digits without look-alikes), so both kinds behave alike.
   */
  async create(input: { token?: string; length: number; uses_allowed: number | null; expiry_time: number | null }) {
    if (input.uses_allowed !== null && input.uses_allowed > MAS_MAX_USAGE_LIMIT) {
      throw new HttpError(400, "uses_allowed is too large", "BAD_REQUEST");
    }
    const token = input.token || readableToken(input.length);
    return fromMas(await this.api.create({ token, usage_limit: input.uses_allowed, expires_at: input.expiry_time }));
  }

  async update(token: string, fields: { uses_allowed?: number | null; expiry_time?: number | null }) {
    const found = await this.api.find(token);
    if (!found) return undefined;
    const updated = await this.api.update(found.id, {
      ...(fields.uses_allowed === undefined ? {} : { usage_limit: fields.uses_allowed }),
      ...(fields.expiry_time === undefined ? {} : { expires_at: fields.expiry_time }),
    });
    return updated && fromMas(updated);
  }

  async disable(token: string) {
    const found = await this.api.find(token);
    const revoked = found && (found.revoked_at !== null ? found : await this.api.revoke(found.id));
    return revoked && fromMas(revoked);
  }

  async enable(token: string) {
    const found = await this.api.find(token);
    const back = found && (found.revoked_at === null ? found : await this.api.unrevoke(found.id));
    return back && fromMas(back);
  }

  delete(): Promise<boolean> {
    throw noDeleteOnMas();
  }

  state = (token: ServerToken, _disabledLocally: boolean, now: number) =>
    masTokenState({ ...token, revoked_at: token.revoked_at ?? null }, now);

  async registerUrl(token: string): Promise<string | undefined> {
    const found = await this.api.find(token);
    if (!found) return undefined;
    return masRegisterUrl(this.publicUrl, found.token, found.invite_url);
  }
}

/** What the seam needs from a managed-server row. */
export interface TokenServer extends MasConnection {
  kind: ServerKind;
  mas_public_url: string | null;
}

/** The backend of a server's kind. `synapseClient` opens the admin-token client only for Synapse servers. */
export function tokenBackendFor(server: TokenServer, synapseClient: () => HomeserverClient, mas: MasConnector): TokenBackend {
  if (server.kind !== "mas") return new SynapseTokenBackend(synapseClient());
  const api = new MasTokensApi(mas.client(server), mas.tokenIds.of(server.id, masVersion(server)));
  return new MasTokenBackend(api, server.mas_public_url ?? server.mas_url ?? "");
}

/** The version of a server's token settings: a list kept for one version is never answered for another. */
export function tokenSettingsVersion(server: TokenServer & { internal_url: string; admin_token_enc: string }): string {
  return server.kind === "mas" ? `mas ${masVersion(server)}` : `synapse ${server.internal_url} ${server.admin_token_enc}`;
}
