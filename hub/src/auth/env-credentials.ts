import { inspect } from "node:util";
import { DEFAULT_SCRYPT, hashPassword, type ScryptParams } from "./password-hash.ts";

/**
 * HUB_AUTH_USERNAME / HUB_AUTH_PASSWORD as the configuration holds them. The password is hashed once with the
 * same scrypt KDF as settings-page credentials ({@link passwordHash}) and the plaintext is dropped right then, so
 * a guess costs the same KDF work whichever source the credentials come from. The configuration object outlives
 * in-process restarts (after a restore), so the hash is kept here and computed only once per process.
 * The password never shows in `JSON.stringify`, `util.inspect` or a log line of the configuration.
 */
export class EnvCredentials {
  readonly username: string;
  #password: string | undefined;
  #hash: Promise<string> | undefined;

  constructor(username: string, password: string) {
    this.username = username;
    this.#password = password;
  }

  /** The password's scrypt hash (`params` count only on the first call); after it the plaintext is gone. */
  passwordHash(params: ScryptParams = DEFAULT_SCRYPT): Promise<string> {
    if (!this.#hash) {
      this.#hash = hashPassword(this.#password ?? "", params);
      this.#password = undefined;
    }
    return this.#hash;
  }

  toJSON(): { username: string; password: "[hidden]" } {
    return { username: this.username, password: "[hidden]" };
  }

  [inspect.custom](): string {
    return `EnvCredentials { username: ${JSON.stringify(this.username)}, password: [hidden] }`;
  }
}
