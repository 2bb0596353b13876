import { rm } from "node:fs/promises";
import { join } from "node:path";
import * as v from "valibot";
import { badRequest, HttpError } from "../../../lib/http-error.ts";
import type { Logger } from "../../../lib/logger.ts";
import { describeIssues } from "../../../lib/validate.ts";
import { readJsonFile, SerialWriter, writeFileAtomic } from "../storage/atomic-file.ts";
import { parseBasicAuthorization } from "./basic-header.ts";
import type { EnvCredentials } from "./env-credentials.ts";
import { KdfGate } from "./kdf-gate.ts";
import { LoginBrake } from "./login-brake.ts";
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
  env?: EnvCredentials | undefined;
  log: Logger;
  /** The ingress proxy whose `X-Remote-User-Id` tells users apart (client-key.ts); the add-on only. */
  ingressProxy?: string | undefined;
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

interface Credentials {
  source: "env" | "settings";
  username: string;
  usernameDigest: Buffer;
  /** scrypt, for both sources: a guess costs the same KDF work wherever the credentials come from. */
  passwordHash: string;
}

/**
 * HTTP Basic credentials of the hub: from the environment (hashed with scrypt at start, plaintext dropped) or from
 * the settings page (an scrypt hash in `auth.json`, written atomically with mode 0600). No credentials: the API is
 * open. Wrong passwords are braked per client (login-brake.ts, client-key.ts) and KDF work is scheduled per client
 * (kdf-gate.ts), so a flood from one client neither finds the password quickly nor locks anyone else out.
 */
export class BasicAuth {
  readonly #file: string;
  readonly #log: Logger;
  readonly #scrypt: ScryptParams;
  readonly #cache: VerificationCache;
  readonly #brake: LoginBrake;
  readonly #gate: KdfGate;
  readonly #writer = new SerialWriter();
  /** See {@link BasicAuthOptions.ingressProxy}. */
  readonly ingressProxy: string | undefined;
  #credentials: Credentials | undefined;

  private constructor(options: BasicAuthOptions, credentials: Credentials | undefined) {
    this.#file = join(options.dataDir, "auth.json");
    this.#log = options.log;
    this.#scrypt = options.scrypt ?? DEFAULT_SCRYPT;
    this.#cache = new VerificationCache({ ttlMs: options.cacheTtlMs ?? 60_000 });
    this.#brake = new LoginBrake();
    this.#gate = new KdfGate();
    this.ingressProxy = options.ingressProxy;
    this.#credentials = credentials;
  }

  /** Reads the credentials; a corrupt `auth.json` fails the start rather than silently opening the API. */
  static async load(options: BasicAuthOptions): Promise<BasicAuth> {
    const file = join(options.dataDir, "auth.json");
    let credentials: Credentials | undefined;
    if (options.env) {
      const { username } = options.env;
      const passwordHash = await options.env.passwordHash(options.scrypt ?? DEFAULT_SCRYPT);
      credentials = { source: "env", username, usernameDigest: digest(username), passwordHash };
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

  /**
   * Whether a request with this `Authorization` header from `client` (client-key.ts) may pass; always when no
   * credentials are set. A header verified recently is answered from the cache, even for a client in backoff (it
   * proved the password already; no KDF work). A new header from a client in backoff is refused with 429 and a
   * `Retry-After`, unchecked. A missing or malformed header is no guess: false, nothing counted.
   */
  async check(header: string | undefined, client = "local"): Promise<boolean> {
    const credentials = this.#credentials;
    if (!credentials) return true;
    const given = parseBasicAuthorization(header);
    if (!given || header === undefined) return false;
    const key = digest(header).toString("hex");
    const known = this.#cache.verdict(key);
    if (known !== undefined) return known;
    this.#refuseWhileBraked(client);
    return this.#cache.check(key, () =>
      this.#gate.run(client, async () => {
        // Checked again at this client's turn: the guesses queued before it may have started a backoff.
        this.#refuseWhileBraked(client);
        // Both parts are always checked, so the time taken does not tell whether the username was right.
        const usernameOk = safeEqual(given.username, credentials.usernameDigest);
        const passwordOk = await verifyPassword(given.password, credentials.passwordHash);
        if (usernameOk && passwordOk) return true;
        const delayMs = this.#brake.recordFailure(client);
        if (delayMs !== undefined) {
          const seconds = Math.ceil(delayMs / 1000);
          this.#log.warn(
            { client, retryAfterSeconds: seconds },
            `wrong credentials from ${client}: new attempts refused for ${seconds} s`,
          );
        }
        return false;
      }),
    );
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

  #refuseWhileBraked(client: string): void {
    const waitMs = this.#brake.retryAfterMs(client);
    if (waitMs === undefined) return;
    const seconds = Math.ceil(waitMs / 1000);
    throw new HttpError(429, `Too many wrong credentials from this client; try again in ${seconds} s`, undefined, {
      "Retry-After": String(seconds),
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
