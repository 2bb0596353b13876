import { join } from "node:path";
import { readJsonFile, SerialWriter, writeFileAtomic } from "../storage/atomic-file.ts";

/**
 * `<dataDir>/settings.json`: one JSON object whose top-level keys belong to different features (`recovery` here;
 * others add theirs). Each write re-reads the file and replaces only its own key, so keys written by other features
 * survive; writes through one instance are serialised. Features sharing the file should share one instance.
 */
export class SettingsFile {
  readonly path: string;
  readonly #writer = new SerialWriter();

  constructor(dataDir: string) {
    this.path = join(dataDir, "settings.json");
  }

  /** The value under `key`, or undefined when the file or the key does not exist. A corrupt file throws. */
  async read(key: string): Promise<unknown> {
    return (await this.#readAll())[key];
  }

  /** Sets `key` to `value`, keeping every other key as it is on disk, with an atomic replace of the file. */
  write(key: string, value: unknown): Promise<void> {
    return this.#writer.run(async () => {
      const all = await this.#readAll();
      all[key] = value;
      await writeFileAtomic(this.path, `${JSON.stringify(all, null, 2)}\n`, 0o600);
    });
  }

  async #readAll(): Promise<Record<string, unknown>> {
    const content = await readJsonFile<unknown>(this.path);
    if (content === undefined) return {};
    if (typeof content !== "object" || content === null || Array.isArray(content)) {
      throw new Error(`${this.path} must hold a JSON object; restore it from a backup or delete it`);
    }
    return content as Record<string, unknown>;
  }
}
