import { isIP } from "node:net";
import { join, resolve } from "node:path";
import * as v from "valibot";
import {
  ConfigError,
  flagVariable,
  logFormatVariable,
  logLevelVariable,
  optionalText,
  parseEnv,
  portVariable,
} from "../../lib/config-env.ts";
import type { LogFormat } from "../../lib/log-format.ts";
import type { LogLevel } from "../../lib/logger.ts";
import { isOutboundEntry, type OutboundRules } from "./homeserver/outbound-policy.ts";

/** The portal's configuration, parsed once from the environment (see shared runtime contract). */
export interface PortalConfig {
  readonly http: { readonly host: string; readonly port: number };
  readonly dataDir: string;
  readonly webDir: string;
  /** 32 raw bytes from PORTAL_SECRET_KEY, or undefined to use/generate the key file in the data dir. */
  readonly secretKey: Buffer | undefined;
  readonly admin: { readonly email: string; readonly password: string } | undefined;
  readonly logLevel: LogLevel;
  /** How stdout gets the log: readable lines (default) or JSON (`PORTAL_LOG_FORMAT=json`). */
  readonly logFormat: LogFormat;
  /** PORTAL_LOG_FILE: a file that keeps this run's log too (the add-on's /config/logs/), unset for none. */
  readonly logFile: string | undefined;
  /** Demo mode: a simulated homeserver is started and registered as the default managed server. */
  readonly demo: boolean;
  /**
   * Reverse proxies (IP addresses or CIDR ranges) whose `X-Forwarded-For`, `X-Forwarded-Host` and
   * `X-Forwarded-Proto` are believed; from anyone else these headers are ignored (PORTAL_TRUSTED_PROXIES).
   */
  readonly trustedProxies: readonly string[];
  /**
   * Where the portal may connect with managed servers' credentials (PORTAL_OUTBOUND_ALLOW, PORTAL_OUTBOUND_DENY):
   * IP addresses, CIDR ranges, host names, `*.domain`. Link-local and cloud metadata addresses are refused besides.
   */
  readonly outbound: OutboundRules;
  /** PORTAL_METRICS_TOKEN: the bearer token a Prometheus scraper sends; without it `/api/metrics` is off. */
  readonly metricsToken: string | undefined;
  /** Where the portal keeps its tables: SQLite in the data dir (default) or PostgreSQL (PORTAL_DATABASE_URL). */
  readonly database: DatabaseConfig;
  /**
   * PORTAL_MIGRATE (default on): apply pending migrations at start. Off: never change the schema at start (the
   * deployment runs `npm run portal:migrate`) and refuse to start while migrations are pending.
   */
  readonly migrateAtStart: boolean;
}

/**
 * The portal's database. A PostgreSQL URL may hold the password: it is only ever shown through `redacted`, and the
 * object serialises (logs, JSON) without it.
 */
export type DatabaseConfig =
  | { readonly kind: "sqlite"; readonly path: string }
  | { readonly kind: "postgres"; readonly url: string; readonly redacted: string };

/** The SQLite database file inside the data dir. */
export const SQLITE_FILE = "portal.sqlite";

/** A scrape token must not be guessable: 24 characters of `openssl rand -hex 16` or similar at least. */
export const MIN_METRICS_TOKEN_LENGTH = 24;

/** An IP address, or an address and prefix length (`10.0.0.0/8`, `fd00::/8`). */
export function isAddressOrRange(entry: string): boolean {
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** A comma-separated list whose entries must pass `valid`. */
const list = (valid: (entry: string) => boolean, message: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.transform((text) =>
        text
          .split(",")
          .map((entry) => entry.trim())
          .filter(Boolean),
      ),
      v.check((entries) => entries.every(valid), message),
    ),
    "",
  );

const TrustedProxies = list(isAddressOrRange, "must be a comma-separated list of IP addresses or CIDR ranges");
const OutboundList = list(isOutboundEntry, "must be a comma-separated list of IP addresses, CIDR ranges, host names or *.domain");

/**
 * PORTAL_DATABASE_URL: `postgres://user:password@host:5432/database` (or `postgresql://`; query parameters such as
 * `sslmode` pass to the driver). Checked as a URL; the value is never repeated in the error (it may hold a password):
 * the transform runs first, so a failed check reports the parsed result, not the text.
 */
const DatabaseUrl = v.optional(
  v.pipe(
    optionalText,
    v.transform((text) => (text === undefined ? undefined : { text, url: URL.canParse(text) ? new URL(text) : undefined })),
    v.check(
      (value) => value === undefined || (value.url !== undefined && /^postgres(ql)?:$/.test(value.url.protocol)),
      "must be a postgres:// URL (postgres://user:password@host:5432/database)",
    ),
    v.transform((value) => value?.text),
  ),
);

/** PORTAL_MIGRATE: on unless turned off. */
const MigrateVariable = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.toLowerCase(),
    v.picklist(["", "0", "1", "true", "false", "yes", "no", "on", "off"], "must be on or off"),
    v.transform((value) => !["0", "false", "no", "off"].includes(value)),
  ),
  "",
);

const EnvSchema = v.object({
  PORTAL_PORT: portVariable(8483, true),
  PORTAL_HOST: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty("must not be empty")), "0.0.0.0"),
  PORTAL_DATA_DIR: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty("must not be empty")), "./data/portal"),
  PORTAL_WEB_DIR: optionalText,
  PORTAL_SECRET_KEY: optionalText,
  PORTAL_ADMIN_EMAIL: v.optional(v.pipe(optionalText, v.optional(v.pipe(v.string(), v.email("must be an e-mail address"))))),
  PORTAL_ADMIN_PASSWORD: optionalText,
  PORTAL_LOG_LEVEL: logLevelVariable,
  PORTAL_LOG_FORMAT: logFormatVariable,
  PORTAL_LOG_FILE: optionalText,
  PORTAL_DEMO: flagVariable,
  PORTAL_TRUSTED_PROXIES: TrustedProxies,
  PORTAL_OUTBOUND_ALLOW: OutboundList,
  PORTAL_OUTBOUND_DENY: OutboundList,
  PORTAL_METRICS_TOKEN: optionalText,
  PORTAL_DATABASE_URL: DatabaseUrl,
  PORTAL_MIGRATE: MigrateVariable,
  HA_URL: optionalText,
});

/** Decodes a 32-byte key written as 64 hex digits or as base64 (standard or URL-safe). */
export function decodeSecretKey(text: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, "hex") : Buffer.from(text, "base64");
  if (key.length !== 32 || (!/^[0-9a-fA-F]{64}$/.test(text) && !/^[A-Za-z0-9+/_-]{43}=?$/.test(text))) {
    throw new ConfigError("invalid configuration: PORTAL_SECRET_KEY must be 32 bytes, as 64 hex digits or 44 base64 characters");
  }
  return key;
}

export function loadPortalConfig(env: Record<string, string | undefined>, repoRoot: string): PortalConfig {
  const e = parseEnv(EnvSchema, env);
  if (Boolean(e.PORTAL_ADMIN_EMAIL) !== Boolean(e.PORTAL_ADMIN_PASSWORD)) {
    throw new ConfigError("invalid configuration: set both PORTAL_ADMIN_EMAIL and PORTAL_ADMIN_PASSWORD, or neither");
  }
  if (e.PORTAL_ADMIN_PASSWORD !== undefined && e.PORTAL_ADMIN_PASSWORD.length < 8) {
    throw new ConfigError("invalid configuration: PORTAL_ADMIN_PASSWORD must have at least 8 characters");
  }
  const metricsToken = e.PORTAL_METRICS_TOKEN;
  if (metricsToken !== undefined && (metricsToken.length < MIN_METRICS_TOKEN_LENGTH || /\s/.test(metricsToken))) {
    throw new ConfigError(
      `invalid configuration: PORTAL_METRICS_TOKEN must have at least ${MIN_METRICS_TOKEN_LENGTH} characters and no spaces (e.g. openssl rand -hex 16)`,
    );
  }
  const dataDir = resolve(e.PORTAL_DATA_DIR);
  return Object.freeze({
    http: { host: e.PORTAL_HOST, port: e.PORTAL_PORT },
    dataDir,
    webDir: resolve(e.PORTAL_WEB_DIR ?? `${repoRoot}/dist/web/portal`),
    secretKey: e.PORTAL_SECRET_KEY === undefined ? undefined : decodeSecretKey(e.PORTAL_SECRET_KEY),
    admin:
      e.PORTAL_ADMIN_EMAIL && e.PORTAL_ADMIN_PASSWORD
        ? { email: e.PORTAL_ADMIN_EMAIL.toLowerCase(), password: e.PORTAL_ADMIN_PASSWORD }
        : undefined,
    logLevel: e.PORTAL_LOG_LEVEL,
    logFormat: e.PORTAL_LOG_FORMAT,
    logFile: e.PORTAL_LOG_FILE === undefined ? undefined : resolve(e.PORTAL_LOG_FILE),
    // Same rule as the hub: demo when nothing real is configured, never when HA_URL points at a real home.
    demo: e.PORTAL_DEMO || !e.HA_URL,
    trustedProxies: Object.freeze([...e.PORTAL_TRUSTED_PROXIES]),
    outbound: Object.freeze({
      allow: Object.freeze([...e.PORTAL_OUTBOUND_ALLOW]),
      deny: Object.freeze([...e.PORTAL_OUTBOUND_DENY]),
    }),
    metricsToken,
    database: databaseConfig(e.PORTAL_DATABASE_URL, dataDir),
    migrateAtStart: e.PORTAL_MIGRATE,
  });
}

/** SQLite in the data dir, or PostgreSQL at `url` (serialised with the password hidden). */
export function databaseConfig(url: string | undefined, dataDir: string): DatabaseConfig {
  if (url === undefined) return Object.freeze({ kind: "sqlite", path: join(dataDir, SQLITE_FILE) });
  const redacted = redactDatabaseUrl(url);
  const database = { kind: "postgres" as const, url, redacted, toJSON: () => ({ kind: "postgres", url: redacted }) };
  Object.defineProperty(database, "toJSON", { enumerable: false });
  return Object.freeze(database);
}

/** The URL with its password (and any `password` query parameter) replaced by `***`. */
export function redactDatabaseUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  for (const key of [...parsed.searchParams.keys()]) if (/pass/i.test(key)) parsed.searchParams.set(key, "***");
  return parsed.toString();
}
