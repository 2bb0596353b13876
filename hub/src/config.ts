import { resolve } from "node:path";
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
import { EnvCredentials } from "./auth/env-credentials.ts";

/** The hub's configuration, parsed once from the environment (see shared runtime contract). */
export interface HubConfig {
  readonly http: {
    readonly host: string;
    readonly port: number;
    readonly allowedIps: readonly string[];
    /** HUB_ALLOWED_HOSTS: host names answered without credentials besides local ones (http/host-guard.ts). */
    readonly allowedHosts: readonly string[];
    /** HUB_LAN_PORT: a second listener without the IP allow-list, always authenticated (http/lan-listener.ts). */
    readonly lanPort: number | undefined;
  };
  readonly dataDir: string;
  readonly webDir: string;
  readonly ha: { readonly url: string; readonly token: string } | undefined;
  /** The password is hashed once at start and then dropped (env-credentials.ts). */
  readonly auth: EnvCredentials | undefined;
  readonly logLevel: LogLevel;
  /** How stdout gets the log: readable lines (default) or JSON (`HUB_LOG_FORMAT=json`). */
  readonly logFormat: LogFormat;
  /** HUB_LOG_FILE: a file that keeps this run's log too (the add-on's /config/logs/), unset for none. */
  readonly logFile: string | undefined;
  readonly mdnsInterface: string | undefined;
  /** Demo mode: no HA configured (or HUB_DEMO=1), the hub runs against the built-in simulated home. */
  readonly demo: boolean;
}

const ipList = v.optional(
  v.pipe(
    v.string(),
    v.transform((value) =>
      value
        .split(",")
        .map((part) => part.trim())
        .filter(Boolean),
    ),
    v.array(v.pipe(v.string(), v.ip("must be a comma-separated list of IP addresses"))),
  ),
  "",
);

/** Host names: `*`, `name.example`, or `.example` for every name under it. */
const hostList = v.optional(
  v.pipe(
    v.string(),
    v.transform((value) =>
      value
        .split(",")
        .map((part) => part.trim().toLowerCase())
        .filter(Boolean),
    ),
    v.array(
      v.pipe(
        v.string(),
        v.regex(
          /^(?:\*|\.?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*)$/,
          "must be a comma-separated list of host names (.example.com for every name under it, * for any)",
        ),
      ),
    ),
  ),
  "",
);

const optionalPort = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.transform((value) => (value === "" ? undefined : value)),
    v.optional(
      v.pipe(
        v.string(),
        v.regex(/^\d{1,5}$/, "must be a port number"),
        v.transform(Number),
        v.number(),
        v.minValue(1, "must be between 1 and 65535"),
        v.maxValue(65535, "must be between 1 and 65535"),
      ),
    ),
  ),
);

const EnvSchema = v.object({
  HUB_PORT: portVariable(8482, true),
  HUB_HOST: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty("must not be empty")), "0.0.0.0"),
  HUB_DATA_DIR: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty("must not be empty")), "./data/hub"),
  HUB_WEB_DIR: optionalText,
  HUB_ALLOWED_IPS: ipList,
  HUB_ALLOWED_HOSTS: hostList,
  HUB_LAN_PORT: optionalPort,
  HA_URL: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.transform((value) => (value === "" ? undefined : value)),
      v.optional(
        v.pipe(
          v.string(),
          v.url("must be a URL such as http://homeassistant.local:8123"),
          v.regex(/^https?:\/\//i, "must start with http:// or https://"),
        ),
      ),
    ),
  ),
  HA_TOKEN: optionalText,
  HUB_AUTH_USERNAME: optionalText,
  HUB_AUTH_PASSWORD: optionalText,
  HUB_LOG_LEVEL: logLevelVariable,
  HUB_LOG_FORMAT: logFormatVariable,
  HUB_LOG_FILE: optionalText,
  HUB_MDNS_INTERFACE: optionalText,
  HUB_DEMO: flagVariable,
});

/** Parses the hub configuration or throws a ConfigError with one readable line. */
export function loadHubConfig(env: Record<string, string | undefined>, repoRoot: string): HubConfig {
  const e = parseEnv(EnvSchema, env);
  if (e.HA_URL && !e.HA_TOKEN && !e.HUB_DEMO) {
    throw new ConfigError("invalid configuration: HA_TOKEN is required when HA_URL is set (a long-lived access token)");
  }
  if (Boolean(e.HUB_AUTH_USERNAME) !== Boolean(e.HUB_AUTH_PASSWORD)) {
    throw new ConfigError("invalid configuration: set both HUB_AUTH_USERNAME and HUB_AUTH_PASSWORD, or neither");
  }
  if (e.HUB_LAN_PORT !== undefined && e.HUB_LAN_PORT === e.HUB_PORT) {
    throw new ConfigError("invalid configuration: HUB_LAN_PORT must differ from HUB_PORT");
  }
  const demo = e.HUB_DEMO || !e.HA_URL;
  return Object.freeze({
    http: {
      host: e.HUB_HOST,
      port: e.HUB_PORT,
      allowedIps: e.HUB_ALLOWED_IPS,
      allowedHosts: e.HUB_ALLOWED_HOSTS,
      lanPort: e.HUB_LAN_PORT,
    },
    dataDir: resolve(e.HUB_DATA_DIR),
    webDir: resolve(e.HUB_WEB_DIR ?? `${repoRoot}/dist/web/hub`),
    ha: !demo && e.HA_URL && e.HA_TOKEN ? { url: e.HA_URL.replace(/\/+$/, ""), token: e.HA_TOKEN } : undefined,
    auth: e.HUB_AUTH_USERNAME && e.HUB_AUTH_PASSWORD ? new EnvCredentials(e.HUB_AUTH_USERNAME, e.HUB_AUTH_PASSWORD) : undefined,
    logLevel: e.HUB_LOG_LEVEL,
    logFormat: e.HUB_LOG_FORMAT,
    logFile: e.HUB_LOG_FILE === undefined ? undefined : resolve(e.HUB_LOG_FILE),
    mdnsInterface: e.HUB_MDNS_INTERFACE,
    demo,
  });
}
