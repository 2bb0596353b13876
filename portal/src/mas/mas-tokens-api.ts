import { HttpError } from "../../../lib/http-error.ts";
import type { HomeserverResponse } from "../homeserver/homeserver-client.ts";
import { homeserverPath } from "../homeserver/homeserver-path.ts";
import type { MasAdminClient } from "./mas-connector.ts";
import { masCallFailed, noMas, reachMas } from "./mas-errors.ts";

/** A user registration token as MAS's admin API describes it, times in ms since the epoch. */
export interface MasRegistrationToken {
  /** The ULID MAS addresses the token by (its admin API has no lookup by token string). */
  id: string;
  token: string;
  /** MAS's own verdict at the time of the answer. */
  valid: boolean;
  usage_limit: number | null;
  times_used: number;
  created_at: number | null;
  last_used_at: number | null;
  expires_at: number | null;
  revoked_at: number | null;
  /** MAS's invite link (`/register?token=…`), from MAS versions with PR #5971 only. */
  invite_url: string | null;
}

/** `filter[…]` of MAS's list endpoint. */
export interface MasTokenFilter {
  used?: boolean;
  revoked?: boolean;
  expired?: boolean;
  valid?: boolean;
}

export interface MasTokenPage {
  tokens: MasRegistrationToken[];
  /** The id to pass as `after` for the next page; null on the last page. */
  next: string | null;
  /** `meta.count`: every token the filter matches (null when MAS did not say). */
  total: number | null;
}

const WHAT = "the user registration token admin API";
const PATH = "/api/admin/v1/user-registration-tokens";
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
/** Tokens per page when the portal reads them all (MAS has no maximum; its default is 10). */
const PAGE_SIZE = 100;

const time = (value: unknown) => (typeof value === "string" && !Number.isNaN(Date.parse(value)) ? Date.parse(value) : null);
const count = (value: unknown) => (typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : null);

/** One `data` resource, or undefined when it is not a registration token as MAS describes one. */
function asToken(resource: unknown): MasRegistrationToken | undefined {
  const { id, attributes } = (resource ?? {}) as { id?: unknown; attributes?: Record<string, unknown> };
  if (typeof id !== "string" || !ULID.test(id) || typeof attributes !== "object" || attributes === null) return undefined;
  if (typeof attributes.token !== "string") return undefined;
  return {
    id,
    token: attributes.token,
    valid: attributes.valid === true,
    usage_limit: count(attributes.usage_limit),
    times_used: count(attributes.times_used) ?? 0,
    created_at: time(attributes.created_at),
    last_used_at: time(attributes.last_used_at),
    expires_at: time(attributes.expires_at),
    revoked_at: time(attributes.revoked_at),
    invite_url: typeof attributes.invite_url === "string" ? attributes.invite_url : null,
  };
}

/** The token of a single-resource answer; an answer of another shape means no MAS answered. */
function single(response: HomeserverResponse): MasRegistrationToken {
  const token = asToken(response.body.data);
  if (!token) throw noMas();
  return token;
}

const rfc3339 = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * MAS's admin API for user registration tokens (`/api/admin/v1/user-registration-tokens`) for one managed server:
 * list pages with filters, all tokens, lookup by token string, create, update, revoke, unrevoke. There is no delete.
 * Refusals become HttpErrors through `masCallFailed`; lookups answer undefined for an unknown token.
 */
export class MasTokensApi {
  constructor(
    private readonly client: MasAdminClient,
    /** This server's token → id map (MasTokenIds). */
    private readonly ids: Map<string, string>,
  ) {}

  /** One page: `page[first]`, `page[after]`, the filters. */
  async page(filter: MasTokenFilter, first: number, after?: string): Promise<MasTokenPage> {
    const query: Record<string, string> = { "page[first]": String(first) };
    if (after !== undefined) query["page[after]"] = after;
    for (const [name, value] of Object.entries(filter)) {
      if (value !== undefined) query[`filter[${name}]`] = String(value);
    }
    const response = await reachMas(() => this.client.call("GET", PATH, { query }));
    if (response.status !== 200 || !Array.isArray(response.body.data)) throw masCallFailed(response, WHAT);
    const tokens = response.body.data.map(asToken);
    if (tokens.some((token) => token === undefined)) throw noMas();
    const found = tokens as MasRegistrationToken[];
    for (const token of found) this.ids.set(token.token, token.id);
    const links = (response.body.links ?? {}) as { next?: unknown };
    const meta = (response.body.meta ?? {}) as { count?: unknown };
    // The next page starts after the last item's id (its cursor); MAS's own `next` link is not followed, since it is
    // root-relative and would lose a path prefix of the MAS URL.
    const next = typeof links.next === "string" && found.length > 0 ? (found.at(-1)?.id ?? null) : null;
    return { tokens: found, next, total: count(meta.count) };
  }

  /** Every token, page after page. */
  async all(filter: MasTokenFilter = {}): Promise<MasRegistrationToken[]> {
    const tokens: MasRegistrationToken[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await this.page(filter, PAGE_SIZE, after);
      tokens.push(...page.tokens);
      if (page.next === null || page.next === after) return tokens;
      after = page.next;
    }
  }

  async byId(id: string): Promise<MasRegistrationToken | undefined> {
    const response = await reachMas(() => this.client.call("GET", homeserverPath`/api/admin/v1/user-registration-tokens/${id}`));
    if (response.status === 404) return undefined;
    if (response.status !== 200) throw masCallFailed(response, WHAT);
    return single(response);
  }

  /** The token with this exact string: by its remembered id, else by reading the list. */
  async find(token: string): Promise<MasRegistrationToken | undefined> {
    const known = this.ids.get(token);
    if (known !== undefined) {
      const found = await this.byId(known);
      if (found?.token === token) return found;
      this.ids.delete(token);
    }
    return (await this.all()).find((candidate) => candidate.token === token);
  }

  /** `POST`: 201; 409 when the token string exists. */
  async create(body: { token: string; usage_limit: number | null; expires_at: number | null }): Promise<MasRegistrationToken> {
    const payload = { token: body.token, usage_limit: body.usage_limit, expires_at: rfc3339(body.expires_at) };
    const response = await reachMas(() => this.client.call("POST", PATH, { body: payload }));
    if (response.status !== 201) throw masCallFailed(response, WHAT);
    const created = single(response);
    this.ids.set(created.token, created.id);
    return created;
  }

  /** `PUT`: only the fields given change, `null` clears; undefined when MAS does not know the id. */
  async update(
    id: string,
    fields: { usage_limit?: number | null; expires_at?: number | null },
  ): Promise<MasRegistrationToken | undefined> {
    const payload = {
      ...(fields.usage_limit === undefined ? {} : { usage_limit: fields.usage_limit }),
      ...(fields.expires_at === undefined ? {} : { expires_at: rfc3339(fields.expires_at) }),
    };
    const response = await reachMas(() =>
      this.client.call("PUT", homeserverPath`/api/admin/v1/user-registration-tokens/${id}`, { body: payload }),
    );
    if (response.status === 404) return undefined;
    if (response.status !== 200) throw masCallFailed(response, WHAT);
    return single(response);
  }

  /** Revokes; a token already revoked is answered as it is (MAS's 400 for that is no failure here). */
  revoke(id: string): Promise<MasRegistrationToken | undefined> {
    return this.toggle(id, "revoke");
  }

  /** Unrevokes; a token that is not revoked is answered as it is. */
  unrevoke(id: string): Promise<MasRegistrationToken | undefined> {
    return this.toggle(id, "unrevoke");
  }

  private async toggle(id: string, action: "revoke" | "unrevoke"): Promise<MasRegistrationToken | undefined> {
    const path =
      action === "revoke"
        ? homeserverPath`/api/admin/v1/user-registration-tokens/${id}/revoke`
        : homeserverPath`/api/admin/v1/user-registration-tokens/${id}/unrevoke`;
    const response = await reachMas(() => this.client.call("POST", path));
    if (response.status === 404) return undefined;
    if (response.status === 400) {
      // "… is already revoked" / "… is not revoked": the state asked for is there. Anything else is a real refusal.
      const current = await this.byId(id);
      if (current && (current.revoked_at !== null) === (action === "revoke")) return current;
      throw masCallFailed(response, WHAT);
    }
    if (response.status !== 200) throw masCallFailed(response, WHAT);
    return single(response);
  }
}

/** A limit the portal sends MAS must fit MAS's i32 column (MAS's API type is u32; above 2³¹−1 it fails). */
export const MAS_MAX_USAGE_LIMIT = 2_147_483_647;

/** MAS has no delete: the portal says so instead of pretending. */
export const noDeleteOnMas = () =>
  new HttpError(
    409,
    "MAS keeps every registration token and has no way to delete one: revoke it instead (PATCH), which MAS can undo (unrevoke)",
    "MAS_NO_DELETE",
  );

/**
 * Where a person signs up on MAS with `token`: MAS's own `invite_url` when it gives one (MAS PR #5971, unreleased,
 * `…/register?token=`), otherwise `<MAS public URL>/register?token=<token>`. Released MAS (≤ v1.22) ignores the
 * query (its `/register` reads only post-auth actions), so the person types or pastes the token at MAS's token step;
 * the sign-up page shows it with a copy button for that.
 */
export function masRegisterUrl(publicUrl: string, token: string, inviteUrl?: string | null): string {
  if (inviteUrl) return inviteUrl;
  return `${publicUrl.replace(/\/+$/, "")}/register?token=${encodeURIComponent(token)}`;
}
