import { parse } from "yaml";

/** One namespace entry of a registration (`{regex, exclusive}`), compiled as Python's `re.match` uses it. */
export interface NamespaceRule {
  readonly regex: string;
  readonly exclusive: boolean;
  readonly pattern: RegExp;
}

/** An application service as Synapse holds it after loading its registration file. */
export interface AppserviceRecord {
  readonly id: string;
  readonly asToken: string;
  readonly hsToken: string;
  /** The full user ID of `sender_localpart` on this server. */
  readonly sender: string;
  readonly url: string | null;
  readonly rateLimited: boolean;
  readonly namespaces: { users: NamespaceRule[]; aliases: NamespaceRule[]; rooms: NamespaceRule[] };
  readonly protocols: string[];
}

/** Raised for a registration Synapse would refuse at start-up (it then does not start at all). */
export class AppserviceConfigError extends Error {
  override name = "AppserviceConfigError";
}

const NAMESPACE_KINDS = ["users", "aliases", "rooms"] as const;

/** Python's `urllib.parse.quote` with its default `safe='/'`: the characters it leaves alone. */
const URL_SAFE = /^[A-Za-z0-9_.~/-]*$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A Python regex as JavaScript runs it from the start of the string (`re.match`); refused when it does not compile. */
function compile(regex: string): RegExp {
  try {
    return new RegExp(`^(?:${regex})`);
  } catch {
    throw new AppserviceConfigError(`Invalid regex in namespace: ${regex}`);
  }
}

/**
 * `_load_appservice` (synapse/config/appservice.py): parses one registration file (YAML text or the parsed object)
 * with Synapse's checks, in its order: `id`, `as_token`, `hs_token`, `sender_localpart` required strings; `url` a
 * string or an explicit null (a missing key is an error); `sender_localpart` must not need URL-encoding; `namespaces`
 * an object whose `users` / `aliases` / `rooms` lists hold `{regex: string, exclusive: bool}`; `protocols` a list of
 * strings; `rate_limited` a boolean, else true; `org.matrix.msc3202` and `io.element.msc4190` booleans when present.
 */
export function parseAppserviceRegistration(serverName: string, registration: string | unknown): AppserviceRecord {
  let info: unknown = registration;
  if (typeof registration === "string") {
    try {
      info = parse(registration);
    } catch (error) {
      throw new AppserviceConfigError(`Registration is not valid YAML: ${(error as Error).message}`);
    }
  }
  if (!isRecord(info)) throw new AppserviceConfigError("Registration must be a YAML mapping");
  for (const field of ["id", "as_token", "hs_token", "sender_localpart"]) {
    if (typeof info[field] !== "string") throw new AppserviceConfigError(`Required string field: '${field}'`);
  }
  if (typeof info.url !== "string" && (!("url" in info) || info.url !== null)) {
    throw new AppserviceConfigError("Required string field or explicit null: 'url'");
  }
  const localpart = info.sender_localpart as string;
  if (!URL_SAFE.test(localpart)) throw new AppserviceConfigError("sender_localpart needs characters which are not URL encoded.");
  const namespacesInfo = info.namespaces;
  if (!isRecord(namespacesInfo)) throw new AppserviceConfigError("Requires 'namespaces' object.");
  const namespaces: AppserviceRecord["namespaces"] = { users: [], aliases: [], rooms: [] };
  for (const kind of NAMESPACE_KINDS) {
    if (!(kind in namespacesInfo)) continue;
    const entries = namespacesInfo[kind];
    if (!Array.isArray(entries)) throw new AppserviceConfigError(`Expected namespace '${kind}' to be a list`);
    for (const entry of entries) {
      if (!isRecord(entry)) throw new AppserviceConfigError(`Expected namespace entry in ${kind} to be an object`);
      if (typeof entry.regex !== "string") throw new AppserviceConfigError(`Missing/bad type 'regex' key in ${kind}`);
      if (typeof entry.exclusive !== "boolean") throw new AppserviceConfigError(`Missing/bad type 'exclusive' key in ${kind}`);
      namespaces[kind].push({ regex: entry.regex, exclusive: entry.exclusive, pattern: compile(entry.regex) });
    }
  }
  const protocols = info.protocols;
  if (protocols) {
    if (!Array.isArray(protocols)) throw new AppserviceConfigError("Optional 'protocols' must be a list if present.");
    if (!protocols.every((p) => typeof p === "string")) throw new AppserviceConfigError("Bad value for 'protocols' item");
  }
  for (const flag of ["org.matrix.msc3202", "io.element.msc4190"]) {
    if (flag in info && typeof info[flag] !== "boolean") {
      throw new AppserviceConfigError(`The \`${flag}\` option should be true or false if specified.`);
    }
  }
  return {
    id: info.id as string,
    asToken: info.as_token as string,
    hsToken: info.hs_token as string,
    sender: `@${localpart}:${serverName}`,
    url: info.url as string | null,
    rateLimited: typeof info.rate_limited === "boolean" ? info.rate_limited : true,
    namespaces,
    protocols: Array.isArray(protocols) ? (protocols as string[]) : [],
  };
}

/** `ApplicationService.is_interested_in_user`: the sender, or a user in any `users` namespace. */
export function isInterestedInUser(service: AppserviceRecord, userId: string): boolean {
  return userId === service.sender || service.namespaces.users.some((rule) => rule.pattern.test(userId));
}

/** `ApplicationService.is_exclusive_user`: the sender, or a user in an exclusive `users` namespace. */
export function isExclusiveUser(service: AppserviceRecord, userId: string): boolean {
  return userId === service.sender || service.namespaces.users.some((rule) => rule.exclusive && rule.pattern.test(userId));
}
