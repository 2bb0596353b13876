/**
 * What a backup may contain, as paths relative to the data dir (the same paths inside the ZIP). One allow-list
 * decides both what a backup takes and what a restore accepts; everything else is refused on restore.
 *
 *   bridges.json, entity-mappings.json, settings.json                             configuration (when present)
 *   plugin-packages.json                                                           installed plugin packages and
 *                                                                                  their sources (reinstalled at start)
 *   lock-credentials.json                                                          lock PIN hashes (optional)
 *   plugins/<bridgeId>/<plugin>/…                                                  plugin configuration
 *   matter/<bridgeId>/…, matter/<bridgeId>.controllers.json, identities/<bridgeId>.json
 *                                                                                  Matter identity (optional; the
 *                                                                                  names: bridges/bridge-files.ts)
 *
 * Lock PIN hashes only on request: a 4-digit PIN falls to a brute force of its hash in minutes, so a backup file
 * that travels must not carry them by default (docs/backup.md "Lock PINs").
 *
 * Endpoint identities go with the Matter identity: they name endpoints whose numbers live in the matter.js
 * storage, and one without the other could put a device on another device's endpoint number.
 *
 * Never: `secrets.json` anywhere (plugin passwords), `node_modules` (npm plugin folders), `auth.json` (the
 * hub's login), matter.js lock/pid/temp files, hidden files, `backups/`, anything of an unknown bridge id, the
 * npm folder `plugin-packages/` and uploaded archives `plugin-uploads/` (packages are reinstalled from the record).
 */

import { BRIDGES_FILE, bridgeIdOfFile, IDENTITIES_DIR, MATTER_DIR } from "../bridges/bridge-files.ts";

export const MANIFEST_PATH = "manifest.json";
export const CONFIG_FILES = [
  BRIDGES_FILE,
  "entity-mappings.json",
  "lock-credentials.json",
  "settings.json",
  "plugin-packages.json",
] as const;
export { BRIDGES_FILE };
export const LOCK_PINS_FILE = "lock-credentials.json";
export const PLUGIN_PACKAGES_FILE = "plugin-packages.json";

/** Same rule as an imported bridge id: ids become folder and file names. */
export const BRIDGE_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** One path segment below a bridge's folder: matter.js encodes keys with encodeURIComponent (`%xx`), plugins may use `@`. */
const SEGMENT = /^[A-Za-z0-9@%+=,_~-][A-Za-z0-9@%+=,._~-]{0,199}$/;
const NEVER_FILES = new Set(["secrets.json", "matter.lock", "matter.pid"]);
const NEVER_SEGMENTS = new Set(["node_modules"]);
const MAX_DEPTH_BELOW_BRIDGE = 6;

/** `config` always travels; `identity` and `lock-pins` only when asked for (includeIdentity, includeLockPins). */
export type EntryKind = "config" | "identity" | "lock-pins";

export interface Classified {
  kind: EntryKind;
  /** The bridge the file belongs to, for files under a bridge id. */
  bridgeId?: string;
}

/** Where a data-dir-relative path sits in the layout; `undefined` when it is not backup material. */
export function classify(path: string): Classified | undefined {
  const parts = path.split("/");
  if (parts.some((part) => !SEGMENT.test(part))) return undefined;
  const [top, second, ...rest] = parts;
  if (path === LOCK_PINS_FILE) return { kind: "lock-pins" };
  if (parts.length === 1) return (CONFIG_FILES as readonly string[]).includes(path) ? { kind: "config" } : undefined;
  if (top === IDENTITIES_DIR && parts.length === 2 && second) {
    const bridgeId = bridgeIdOfFile(IDENTITIES_DIR, second);
    return bridgeId !== undefined && BRIDGE_ID.test(bridgeId) ? { kind: "identity", bridgeId } : undefined;
  }
  if (top === "plugins" && second && BRIDGE_ID.test(second) && rest.length >= 2 && allowedBelowBridge(rest)) {
    return { kind: "config", bridgeId: second };
  }
  const controllersOf = top === MATTER_DIR && parts.length === 2 && second ? bridgeIdOfFile(MATTER_DIR, second) : undefined;
  if (controllersOf !== undefined) {
    return BRIDGE_ID.test(controllersOf) ? { kind: "identity", bridgeId: controllersOf } : undefined;
  }
  if (top === MATTER_DIR && second && BRIDGE_ID.test(second) && rest.length >= 1 && allowedBelowBridge(rest)) {
    return { kind: "identity", bridgeId: second };
  }
  return undefined;
}

function allowedBelowBridge(rest: string[]): boolean {
  const file = rest[rest.length - 1] ?? "";
  return (
    rest.length <= MAX_DEPTH_BELOW_BRIDGE &&
    !NEVER_FILES.has(file) &&
    !file.endsWith(".tmp") &&
    !rest.some((segment) => NEVER_SEGMENTS.has(segment))
  );
}

/**
 * Why a ZIP entry name is unsafe (before any layout question): traversal, absolute paths, drive letters,
 * backslashes, empty or dot segments, control characters. `undefined` when the name is safe to join.
 */
export function unsafePathReason(name: string): string | undefined {
  if (name.length === 0 || name.length > 1024) return "empty or overlong name";
  if (name.includes("\\")) return "backslash in name";
  if (name.startsWith("/") || /^[A-Za-z]:/.test(name)) return "absolute path";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f]/.test(name)) return "control character in name";
  const parts = name.split("/");
  if (parts.includes("..")) return "path traversal";
  if (parts.some((part) => part === "" || part === ".")) return "empty or '.' path segment";
  return undefined;
}
