import { join } from "node:path";
import { readJsonFile, SerialWriter, writeFileAtomic } from "../storage/atomic-file.ts";

/** One lock's credential as stored. `pinHash` is `scrypt$…` from auth/password-hash.ts, never the PIN. */
export interface StoredCredential {
  entityId: string;
  enabled: boolean;
  pinHash: string;
  createdAt: string;
  updatedAt: string;
  /** Last remote unlock with the right PIN. */
  lastUsedAt?: string;
  /** Wrong PINs since the last right one or the last PIN change. */
  failedAttempts?: number;
}

interface CredentialsFile {
  version: 1;
  credentials: Record<string, StoredCredential>;
}

/** The file name inside the data dir (backups and restores refer to it). */
export const LOCK_CREDENTIALS_FILE = "lock-credentials.json";

/**
 * `<dataDir>/lock-credentials.json`: the credentials in memory, written atomically with mode 0600 (the hashes
 * are slow to attack, not impossible for a 4-digit PIN, so the file stays readable by the hub's user only).
 */
export class CredentialStore {
  readonly path: string;
  readonly #writer = new SerialWriter();
  #data: CredentialsFile = { version: 1, credentials: {} };

  constructor(dataDir: string) {
    this.path = join(dataDir, LOCK_CREDENTIALS_FILE);
  }

  /** Reads the file; a missing file is an empty store, an unreadable or unknown one an error. */
  async load(): Promise<void> {
    const file = await readJsonFile<CredentialsFile>(this.path);
    if (file && (file.version !== 1 || typeof file.credentials !== "object" || file.credentials === null)) {
      throw new Error(`${this.path}: unknown format (version ${String(file.version)})`);
    }
    this.#data = file ?? { version: 1, credentials: {} };
  }

  list(): StoredCredential[] {
    return Object.values(this.#data.credentials).sort((a, b) => a.entityId.localeCompare(b.entityId));
  }

  get(entityId: string): StoredCredential | undefined {
    return Object.hasOwn(this.#data.credentials, entityId) ? this.#data.credentials[entityId] : undefined;
  }

  /**
   * Runs `change` on the in-memory data and then writes the file, one change after the other in call order;
   * `change` may await (e.g. hash a PIN) and sees every earlier change applied.
   */
  update<T>(change: (credentials: Record<string, StoredCredential>) => T | Promise<T>): Promise<T> {
    return this.#writer.run(async () => {
      const result = await change(this.#data.credentials);
      await this.#write();
      return result;
    });
  }

  /** Writes the current in-memory data (after usage fields were changed in place), in order with updates. */
  persist(): Promise<void> {
    return this.#writer.run(() => this.#write());
  }

  #write(): Promise<void> {
    return writeFileAtomic(this.path, `${JSON.stringify(this.#data, null, 2)}\n`, 0o600);
  }
}
