import type { HomeserverClient } from "./homeserver-client.ts";
import { adminCallFailed, reach } from "./homeserver-errors.ts";
import { homeserverPath } from "./homeserver-path.ts";

/** A registration token as Synapse's admin API returns it (`expiry_time` in ms since the epoch). */
export interface HomeserverToken {
  token: string;
  uses_allowed: number | null;
  pending: number;
  completed: number;
  expiry_time: number | null;
}

const WHAT = "the registration-token admin API";
const PATH = "/_synapse/admin/v1/registration_tokens";
const tokenPath = (token: string) => homeserverPath`/_synapse/admin/v1/registration_tokens/${token}`;

function asToken(value: unknown): HomeserverToken {
  const row = (value ?? {}) as Record<string, unknown>;
  const count = (field: unknown) => (typeof field === "number" ? field : 0);
  const nullableNumber = (field: unknown) => (typeof field === "number" ? field : null);
  return {
    token: String(row.token ?? ""),
    uses_allowed: nullableNumber(row.uses_allowed),
    pending: count(row.pending),
    completed: count(row.completed),
    expiry_time: nullableNumber(row.expiry_time),
  };
}

/**
 * Synapse's registration-token admin API (`/_synapse/admin/v1/registration_tokens`) for one managed server.
 * Refusals become HttpErrors through `adminCallFailed`; `get` answers undefined for an unknown token.
 */
export class RegistrationTokensApi {
  constructor(private readonly client: HomeserverClient) {}

  async list(): Promise<HomeserverToken[]> {
    const response = await reach(() => this.client.call("GET", PATH, { admin: true }));
    if (response.status !== 200 || !Array.isArray(response.body.registration_tokens)) throw adminCallFailed(response, WHAT);
    return response.body.registration_tokens.map(asToken);
  }

  async get(token: string): Promise<HomeserverToken | undefined> {
    const response = await reach(() => this.client.call("GET", tokenPath(token), { admin: true }));
    if (response.status === 404 && response.body.errcode === "M_NOT_FOUND") return undefined;
    if (response.status !== 200) throw adminCallFailed(response, WHAT);
    return asToken(response.body);
  }

  /** `POST /new`; Synapse answers 200 (not 201). */
  async create(body: { token?: string; length?: number; uses_allowed: number | null; expiry_time: number | null }) {
    const response = await reach(() => this.client.call("POST", `${PATH}/new`, { admin: true, body }));
    if (response.status !== 200) throw adminCallFailed(response, WHAT);
    return asToken(response.body);
  }

  /** `PUT`: only the fields given change; undefined when the token does not exist. */
  async update(token: string, body: { uses_allowed?: number | null; expiry_time?: number | null }) {
    const response = await reach(() => this.client.call("PUT", tokenPath(token), { admin: true, body }));
    if (response.status === 404 && response.body.errcode === "M_NOT_FOUND") return undefined;
    if (response.status !== 200) throw adminCallFailed(response, WHAT);
    return asToken(response.body);
  }

  /** False when the homeserver did not know the token. */
  async delete(token: string): Promise<boolean> {
    const response = await reach(() => this.client.call("DELETE", tokenPath(token), { admin: true }));
    if (response.status === 404 && response.body.errcode === "M_NOT_FOUND") return false;
    if (response.status !== 200) throw adminCallFailed(response, WHAT);
    return true;
  }
}
