import { rm } from "node:fs/promises";
import { join } from "node:path";
import * as v from "valibot";
import { badRequest } from "../../../lib/http-error.ts";
import type { Logger } from "../../../lib/logger.ts";
import { describeIssues } from "../../../lib/validate.ts";
import { readJsonFile, SerialWriter, writeFileAtomic } from "../storage/atomic-file.ts";
import { parseBasicAuthorization } from "./basic-header.ts";
import {
  DEFAULT_SCRYPT,
  digest,
  hashPassword,
  isPasswordHash,
  type ScryptParams,
  safeEqual,
  verifyPassword,
} from "./password-hash.ts";
import { VerificationCache } from "./verification-cache.ts";

export type AuthSource = "env" | "settings" | "none";

/** What `GET /api/settings/auth` shows: never the password or its hash. */
export interface AuthStatus {
  enabled: boolean;
  username: string | null;
  source: AuthSource;
}

export interface BasicAuthOptions {
  /** The settings-page credentials live in `<dataDir>/auth.json`. */
  dataDir: string;
  /** HUB_AUTH_USERNAME / HUB_AUTH_PASSWORD; they win over the settings file. */
  env?: { username: string; password: string } | undefined;
  log: Logger;
  /** How long an accepted `Authorization` header is trusted without running the KDF again (60 s). */
  cacheTtlMs?: number;
  scrypt?: ScryptParams;
}

/** Username rules (RFC 7617: a user-id cannot contain a colon; control characters would break the header). */
export const USERNAME_PATTERN = /^[^:\p{Cc}]+$/u;

const AuthFileSchema = v.object({
  username: v.pipe(v.string(), v.minLength(1), v.maxLength(64), v.regex(USERNAME_PATTERN)),
  passwordHash: v.pipe(v.string(), v.check(isPasswordHash, "is not a supported scrypt hash")),
});
type AuthFile = v.InferOutput<typeof AuthFileSchema>;

type Credentials =
  | { source: "env"; username: string; usernameDigest: Buffer; passwordDigest: Buffer }
  | { source: "settings"; username: string; usernameDigest: Buffer; passwordHash: string };

/**
 * HTTP Basic credentials of the hub: from the environment (kept only as SHA-256 digests) or from the settings
 * page (an scrypt hash in `auth.json`, written atomically with mode 0600). No credentials: the API is open.
 */
export class BasicAuth {
  readonly #file: string;
  readonly #log: Logger;
  readonly #scrypt: ScryptParams;
  readonly #cache: VerificationCache;
  readonly #writer = new SerialWriter();
  #credentials: Credentials | undefined;

  private constructor(options: BasicAuthOptions, credentials: Credentials | undefined) {
    this.#file = join(options.dataDir, "auth.json");
    this.#log = options.log;
    this.#scrypt = options.scrypt ?? DEFAULT_SCRYPT;
    this.#cache = new VerificationCache({ ttlMs: options.cacheTtlMs ?? 60_000 });
    this.#credentials = credentials;
  }

  /** Reads the credentials; a corrupt `auth.json` fails the start rather than silently opening the API. */
  static async load(options: BasicAuthOptions): Promise<BasicAuth> {
    const file = join(options.dataDir, "auth.json");
    let credentials: Credentials | undefined;
    if (options.env) {
      const { username, password } = options.env;
      credentials = { source: "env", username, usernameDigest: digest(username), passwordDigest: digest(password) };
    } else {
      const raw = await readJsonFile<unknown>(file);
      if (raw !== undefined) {
        const parsed = v.safeParse(AuthFileSchema, raw);
        if (!parsed.success) throw new Error(`${file} is invalid (${describeIssues(parsed.issues)}); delete it to reset`);
        credentials = settingsCredentials(parsed.output);
      }
    }
    const auth = new BasicAuth(options, credentials);
    const { source, username } = auth.status;
    if (source === "none") options.log.info("HTTP Basic authentication is off (no credentials configured)");
    else options.log.info({ source, username }, "HTTP Basic authentication is on");
    return auth;
  }

  get enabled(): boolean {
    return this.#credentials !== undefined;
  }

  get status(): AuthStatus {
    const credentials = this.#credentials;
    return credentials
      ? { enabled: true, username: credentials.username, source: credentials.source }
      : { enabled: false, username: null, source: "none" };
  }

  /** Whether a request with this `Authorization` header may pass (always, when no credentials are set). */
  async check(header: string | undefined): Promise<boolean> {
    const credentials = this.#credentials;
    if (!credentials) return true;
    const given = parseBasicAuthorization(header);
    if (!given || header === undefined) return false;
    return this.#cache.check(digest(header).toString("hex"), async () => {
      // Both parts are always checked, so the time taken does not tell whether the username was right.
      const usernameOk = safeEqual(given.username, credentials.usernameDigest);
      const passwordOk =
        credentials.source === "env"
          ? safeEqual(given.password, credentials.passwordDigest)
          : await verifyPassword(given.password, credentials.passwordHash);
      return usernameOk && passwordOk;
    });
  }

  /** Sets the settings-page credentials (refused when the environment manages them). */
  async setCredentials(username: string, password: string): Promise<AuthStatus> {
    this.#refuseWhenEnv();
    return this.#writer.run(async () => {
      this.#refuseWhenEnv();
      const record: AuthFile = { username, passwordHash: await hashPassword(password, this.#scrypt) };
      await writeFileAtomic(this.#file, `${JSON.stringify(record, null, 2)}\n`, 0o600);
      this.#credentials = settingsCredentials(record);
      this.#cache.clear();
      this.#log.info({ username }, "HTTP Basic authentication credentials set on the settings page");
      return this.status;
    });
  }

  /** Removes the settings-page credentials: the API is open again (refused when the environment manages them). */
  async clearCredentials(): Promise<AuthStatus> {
    this.#refuseWhenEnv();
    return this.#writer.run(async () => {
      this.#refuseWhenEnv();
      await rm(this.#file, { force: true });
      const had = this.#credentials !== undefined;
      this.#credentials = undefined;
      this.#cache.clear();
      if (had) this.#log.warn("HTTP Basic authentication credentials removed on the settings page: the API is open");
      return this.status;
    });
  }

  #refuseWhenEnv(): void {
    if (this.#credentials?.source === "env") {
      throw badRequest("Authentication is managed by environment (HUB_AUTH_USERNAME, HUB_AUTH_PASSWORD)");
    }
  }
}

function settingsCredentials(file: AuthFile): Credentials {
  return { source: "settings", username: file.username, usernameDigest: digest(file.username), passwordHash: file.passwordHash };
}
