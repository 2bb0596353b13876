import type { Logger } from "../../lib/logger.ts";

/** A leaky-bucket limit as Synapse configures its `rc_*` settings: `per_second` and `burst_count`. */
export interface RateLimitSettings {
  perSecond: number;
  burst: number;
}

/**
 * Synapse's `password_config.policy` (synapse/handlers/password_policy.py). Off unless given: Synapse's default is
 * `enabled: false`. Passing the object turns it on unless `enabled: false` is set.
 */
export interface PasswordPolicy {
  enabled?: boolean;
  minimumLength?: number;
  requireDigit?: boolean;
  requireSymbol?: boolean;
  requireUppercase?: boolean;
  requireLowercase?: boolean;
}

/** A user created before the server starts. */
export interface SeedUser {
  localpart: string;
  admin?: boolean;
  password?: string;
  displayName?: string;
  /** A fixed access token for this user (otherwise none is issued). */
  accessToken?: string;
}

/** A registration token row as Synapse stores it; the counters default to 0 and the limits to null. */
export interface SeedToken {
  token: string;
  uses_allowed?: number | null;
  pending?: number;
  completed?: number;
  expiry_time?: number | null;
}

export interface HomeserverSimulatorOptions {
  /** TCP port; 0 (the default) asks the OS for a free one. */
  port?: number;
  /** Interface to bind, default `127.0.0.1`. */
  host?: string;
  /** The Matrix server name in user IDs, default `demo.local`. */
  serverName?: string;
  /** Start in MSC3861 / Matrix Authentication Service mode (default false). */
  delegatedAuth?: boolean;
  /**
   * The MAS issuer Synapse relays in delegated mode (`matrix_authentication_service.endpoint`'s public base), with a
   * trailing slash; default `https://auth.<serverName>/`. Point it at a MAS simulator to make discovery lead there.
   */
  authIssuer?: string;
  /**
   * Synapse's `serve_client_wellknown` (default false): answer `/.well-known/matrix/client` with `m.homeserver` and,
   * in delegated mode, `org.matrix.msc2965.authentication`.
   */
  serveClientWellKnown?: boolean;
  /** Synapse's `public_baseurl`, for the client well-known; default `https://<serverName>/`. */
  publicBaseurl?: string;
  /** Synapse's `enable_registration` (default true here, so that the token flow can be exercised). */
  registrationEnabled?: boolean;
  /** Synapse's `registration_requires_token` (default true). */
  registrationRequiresToken?: boolean;
  passwordPolicy?: PasswordPolicy;
  /**
   * `rc_registration`, per client IP; default Synapse's `{perSecond: 0.17, burst: 3}`. `false` turns every limiter off
   * (registration, token validity, username availability).
   */
  rateLimit?: RateLimitSettings | false;
  /** `rc_registration_token_validity`; default Synapse's `{perSecond: 0.1, burst: 5}`. */
  validityRateLimit?: RateLimitSettings;
  /** Milliseconds since the epoch; inject a fake clock to test expiry, rate limits and the 48 h session sweep. */
  now?: () => number;
  /** A fixed access token for `@admin:<serverName>` (otherwise a random one). */
  adminToken?: string;
  /** Appservice exclusive user namespaces (regexes matched from the start of the full user ID, as Python's `re.match`). */
  exclusiveNamespaces?: string[];
  /** Appservice registrations loaded at start (`app_service_config_files`): YAML texts or parsed objects. */
  appserviceRegistrations?: (string | object)[];
  seed?: { users?: SeedUser[]; tokens?: SeedToken[] };
  /** What `GET /_synapse/admin/v1/server_version` reports, default `1.157.1`. */
  serverVersion?: string;
  /** Logger for the HTTP server's start line; silent by default. */
  log?: Logger;
}

/** The options with every default applied. */
export interface ResolvedOptions {
  readonly port: number;
  readonly host: string;
  readonly serverName: string;
  readonly registrationEnabled: boolean;
  readonly registrationRequiresToken: boolean;
  readonly passwordPolicy: Required<PasswordPolicy>;
  readonly validityRateLimit: RateLimitSettings;
  readonly now: () => number;
  readonly serverVersion: string;
  readonly authIssuer: string;
  readonly serveClientWellKnown: boolean;
  readonly publicBaseurl: string;
}

/** Synapse's defaults (docs/usage/configuration/config_documentation.md, `rc_registration`). */
export const DEFAULT_REGISTRATION_RATE_LIMIT: RateLimitSettings = { perSecond: 0.17, burst: 3 };
/** `rc_registration_token_validity` default. */
export const DEFAULT_VALIDITY_RATE_LIMIT: RateLimitSettings = { perSecond: 0.1, burst: 5 };

export function resolveOptions(options: HomeserverSimulatorOptions): ResolvedOptions {
  const policy = options.passwordPolicy;
  return {
    port: options.port ?? 0,
    host: options.host ?? "127.0.0.1",
    serverName: options.serverName ?? "demo.local",
    registrationEnabled: options.registrationEnabled ?? true,
    registrationRequiresToken: options.registrationRequiresToken ?? true,
    passwordPolicy: {
      enabled: policy ? (policy.enabled ?? true) : false,
      minimumLength: policy?.minimumLength ?? 0,
      requireDigit: policy?.requireDigit ?? false,
      requireSymbol: policy?.requireSymbol ?? false,
      requireUppercase: policy?.requireUppercase ?? false,
      requireLowercase: policy?.requireLowercase ?? false,
    },
    validityRateLimit: options.validityRateLimit ?? DEFAULT_VALIDITY_RATE_LIMIT,
    now: options.now ?? Date.now,
    serverVersion: options.serverVersion ?? "1.157.1",
    authIssuer: options.authIssuer ?? `https://auth.${options.serverName ?? "demo.local"}/`,
    serveClientWellKnown: options.serveClientWellKnown ?? false,
    publicBaseurl: options.publicBaseurl ?? `https://${options.serverName ?? "demo.local"}/`,
  };
}
