import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "../../lib/config-env.ts";
import { decodeSecretKey } from "./config.ts";

export const SECRET_KEY_FILE = "secret.key";

/**
 * The portal's 32-byte key for AES-256-GCM and the session cookie: the configured one, else the one generated
 * at first start into the data dir (mode 0600, written atomically). Losing it makes stored secrets unreadable,
 * so an unreadable or malformed file is a fatal configuration error, never silently replaced.
 */
export function loadOrCreateSecretKey(configured: Buffer | undefined, dataDir: string): Buffer {
  if (configured) return configured;
  const path = join(dataDir, SECRET_KEY_FILE);
  let text: string | undefined;
  try {
    text = readFileSync(path, "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT")
      throw new ConfigError(`cannot read ${path}: ${(error as Error).message}`);
  }
  if (text !== undefined) {
    try {
      return decodeSecretKey(text);
    } catch {
      throw new ConfigError(`${path} does not hold a valid 32-byte key; restore it from a backup or set PORTAL_SECRET_KEY`);
    }
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${key.toString("base64")}\n`, { mode: 0o600 });
  renameSync(temp, path);
  return key;
}
