/**
 * What went wrong with an npm run, in one sentence a user can act on, and npm's raw output for "details": bounded
 * and with credentials taken out (docs/plugins.md "Install progress, cancel and failures"). npm's own wording (a
 * stack trace for a refused connection, eight "404" lines for a typo) stays behind details.
 */

/** Known failures; `npm-failed` is anything else (the sentence then quotes npm's last error lines). */
export type NpmFailureCode =
  | "registry-unreachable"
  | "not-found"
  | "no-matching-version"
  | "integrity"
  | "disk-full"
  | "permission"
  | "not-authorized"
  | "registry-error"
  | "timeout"
  | "cancelled"
  | "stopping"
  | "npm-missing"
  | "npm-failed";

/** A failed npm run: `message` is the sentence, `details` npm's output (redacted, bounded), `code` the kind. */
export class NpmError extends Error {
  override name = "NpmError";
  constructor(
    message: string,
    readonly code: NpmFailureCode = "npm-failed",
    readonly details: string | null = null,
  ) {
    super(message);
  }
}

const NETWORK_CODES = ["ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ETIMEDOUT", "ECONNRESET", "ENETUNREACH", "EHOSTUNREACH"];

/** The npm error code of a run's output: `npm error code X` (older npm: `npm ERR! code X`), else a known code in it. */
function errorCode(output: string): string | undefined {
  const stated = /npm (?:error|ERR!) (?:code|errno) (E[A-Z0-9_]+)/.exec(output)?.[1];
  if (stated) return stated;
  for (const code of [...NETWORK_CODES, "ESOCKETTIMEDOUT", "EINTEGRITY", "ENOSPC", "EACCES", "EPERM", "EROFS"]) {
    if (new RegExp(`\\b${code}\\b`).test(output)) return code;
  }
  return undefined;
}

/** The host npm tried to reach, from "request to http://host/… failed" or "getaddrinfo ENOTFOUND host". */
function hostOf(output: string): string | undefined {
  const url = /request to (https?:\/\/[^\s,]+)/.exec(output)?.[1];
  if (url) {
    try {
      return new URL(url).host;
    } catch {
      // fall through
    }
  }
  return /getaddrinfo \w+ ([^\s,]+)/.exec(output)?.[1];
}

/** The last npm error lines, without npm's "A complete log" pointer. */
export function errorTail(output: string): string {
  const lines = output
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => /^npm (error|ERR!)/.test(line) && !/complete log of this run|A complete log/i.test(line));
  const picked = lines.length > 0 ? lines : output.split("\n").filter((line) => line.trim() !== "");
  return picked.slice(-4).join(" | ").slice(0, 600);
}

/**
 * One sentence for a failed npm run (exit code not 0). `command` is npm's command (`install`, `view`), `subject`
 * the package spec or archive it was about.
 */
export function describeNpmFailure(output: string, command: string, subject: string): NpmError {
  const code = errorCode(output);
  const details = npmDetails(output);
  const fail = (kind: NpmFailureCode, sentence: string) => new NpmError(sentence, kind, details);
  const name = subject.replace(/^(@?[^@]+)@.*$/, "$1");
  const range = subject.slice(name.length + 1);
  if (code && (NETWORK_CODES.includes(code) || code === "ESOCKETTIMEDOUT")) {
    const host = hostOf(output);
    return fail(
      "registry-unreachable",
      `The npm registry${host ? ` (${host})` : ""} cannot be reached (${code}): the hub seems to be offline, or DNS, a proxy or a firewall blocks it. Check the hub's network connection and try again.`,
    );
  }
  if (code === "ETARGET" || (code === "E404" && /No match found for version/i.test(output))) {
    return fail(
      "no-matching-version",
      `${name} has no published version matching "${range || "latest"}". Check the version, or leave it out to install the latest one.`,
    );
  }
  if (code === "E404") {
    return fail(
      "not-found",
      `There is no package named ${name} on the npm registry. Check the spelling (npm package names are lower case); a private package needs a registry token the hub can use.`,
    );
  }
  if (code === "EINTEGRITY") {
    return fail(
      "integrity",
      `The download of ${subject} does not match its checksum (EINTEGRITY): it was damaged on the way, or npm's cache holds a broken copy. Try again; nothing was installed.`,
    );
  }
  if (code === "ENOSPC") {
    return fail(
      "disk-full",
      "The disk of the hub's data folder is full (ENOSPC). Free some space and try again; nothing was installed.",
    );
  }
  if (code === "EACCES" || code === "EPERM" || code === "EROFS") {
    return fail(
      "permission",
      `npm may not write a file it needs (${code}): the hub's data folder or npm's cache is not writable by the hub's user. Fix the folder's owner or permissions and try again.`,
    );
  }
  if (code === "E401" || code === "E403") {
    return fail(
      "not-authorized",
      `The npm registry refused access to ${name} (${code.slice(1)}): it is private, or the registry token the hub uses is missing or wrong.`,
    );
  }
  const status = code ? /^E(5\d\d)$/.exec(code)?.[1] : undefined;
  if (status) {
    return fail(
      "registry-error",
      `The npm registry answered with an error (${status}) for ${name}: it has a problem right now. Try again later.`,
    );
  }
  return fail("npm-failed", `npm ${command} ${subject} failed: ${errorTail(output) || "no error message"}`);
}

/** How much of npm's output "details" keeps: its error lines, then the end of its output. */
export const DETAILS_MAX_CHARS = 16 * 1024;

/**
 * "Details" of a failed run: npm's `error` lines first (what a person looks for, which a `silly` log buries under
 * hundreds of lines), then npm's whole output as far as it fits; redacted.
 */
export function npmDetails(output: string): string {
  const errors = output
    .split("\n")
    .filter((line) => /^npm (error|ERR!) /.test(line) && !/A complete log of this run/.test(line))
    .join("\n")
    .slice(0, 4096);
  if (errors === "") return redactNpmOutput(output);
  const head = `${errors}\n\nnpm's whole output:\n`;
  return redactNpmOutput(head + redactNpmOutput(output, DETAILS_MAX_CHARS - head.length), DETAILS_MAX_CHARS + 64);
}

/**
 * npm's output with credentials replaced by `***` (registry tokens and passwords as `.npmrc` lines or environment
 * assignments, `Authorization` values, user:password in URLs, npm's `npm_…` tokens), cut to its last `maxChars`
 * characters at a line start.
 */
export function redactNpmOutput(output: string, maxChars = DETAILS_MAX_CHARS): string {
  const redacted = output
    .replace(/((?:_authToken|_auth|_password|password|token|NPM_TOKEN|NODE_AUTH_TOKEN)["']?\s*[=:]\s*["']?)[^\s"',]+/gi, "$1***")
    .replace(/(authorization["']?\s*[:=]\s*["']?(?:bearer|basic)?\s*)[^\s"',]+/gi, "$1***")
    .replace(/\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, "$1 ***")
    .replace(/(\/\/)[^/\s:@]+:[^/\s@]+@/g, "$1***@")
    .replace(/\bnpm_[A-Za-z0-9]{20,}\b/g, "npm_***");
  if (redacted.length <= maxChars) return redacted;
  const tail = redacted.slice(-maxChars);
  const start = tail.indexOf("\n");
  return `… (earlier output left out)\n${start >= 0 ? tail.slice(start + 1) : tail}`;
}
