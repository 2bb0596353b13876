import type { Logger } from "../../lib/logger.ts";

/** How a client proves its identity at the token endpoint (MAS config `clients[].client_auth_method`). */
export type ClientAuthMethod = "client_secret_basic" | "client_secret_post";

/** A static OAuth 2.0 client from MAS's `clients:` config section. */
export interface SimulatedClient {
  /** A ULID, as MAS requires for static clients. */
  clientId: string;
  clientSecret: string;
  /** Default `client_secret_basic`. */
  authMethod?: ClientAuthMethod;
  /** Listed in `policy.data.admin_clients`: may obtain `urn:mas:admin` by client credentials. Default true. */
  admin?: boolean;
  /** Grant types the client may use; default `["client_credentials"]`. */
  grantTypes?: string[];
}

/** A registration token present at start (as if issued earlier with `mas-cli manage issue-user-registration-token`). */
export interface SeedRegistrationToken {
  token: string;
  usageLimit?: number | null;
  timesUsed?: number;
  /** Milliseconds since the epoch. */
  expiresAt?: number | null;
  revokedAt?: number | null;
}

export interface MasSimulatorOptions {
  /** TCP port; 0 (default) asks the OS for a free one. */
  port?: number;
  /** Interface to bind, default `127.0.0.1`. */
  host?: string;
  /** The Matrix server name MAS serves (site config `server_name`), default `demo.local`. */
  serverName?: string;
  /**
   * The public base URL (MAS `http.public_base`), which is also the issuer; default the simulator's own URL. Links
   * MAS hands to browsers (discovery, `invite_url`) start with it.
   */
  publicBase?: string;
  /** The static clients; default one admin client with a random id and secret (see `MasSimulator.client`). */
  clients?: SimulatedClient[];
  /** `experimental.access_token_ttl` in seconds: 60-86400, default 300. */
  accessTokenTtl?: number;
  /** `account.password_registration_enabled`, default true. */
  passwordRegistrationEnabled?: boolean;
  /** `account.password_registration_token_required`, default true. */
  registrationTokenRequired?: boolean;
  /**
   * Answer the `invite_url` attribute and pre-fill the token page from `/register?token=` (MAS PR #5971, open and
   * unreleased when this was written). Default false: released MAS (≤ v1.22) has neither.
   */
  inviteLinks?: boolean;
  /** Milliseconds since the epoch; inject a fake clock to test expiry of tokens and access tokens. */
  now?: () => number;
  seed?: { tokens?: SeedRegistrationToken[] };
  /** Logger for the HTTP server's start line; silent by default. */
  log?: Logger;
}

export interface ResolvedMasOptions {
  readonly port: number;
  readonly host: string;
  readonly serverName: string;
  readonly accessTokenTtl: number;
  readonly passwordRegistrationEnabled: boolean;
  readonly registrationTokenRequired: boolean;
  readonly inviteLinks: boolean;
  readonly now: () => number;
}

/** MAS refuses to start with a TTL outside 60-86400 s (crates/config/src/sections/experimental.rs). */
export function resolveMasOptions(options: MasSimulatorOptions): ResolvedMasOptions {
  const ttl = options.accessTokenTtl ?? 300;
  if (!Number.isInteger(ttl) || ttl < 60 || ttl > 86400) {
    throw new Error(`accessTokenTtl must be a whole number of seconds between 60 and 86400, not ${ttl}`);
  }
  return {
    port: options.port ?? 0,
    host: options.host ?? "127.0.0.1",
    serverName: options.serverName ?? "demo.local",
    accessTokenTtl: ttl,
    passwordRegistrationEnabled: options.passwordRegistrationEnabled ?? true,
    registrationTokenRequired: options.registrationTokenRequired ?? true,
    inviteLinks: options.inviteLinks ?? false,
    now: options.now ?? Date.now,
  };
}
