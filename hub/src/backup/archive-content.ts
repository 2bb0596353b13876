import * as v from "valibot";
import { badRequest } from "../../../lib/http-error.ts";
import { describeIssues } from "../../../lib/validate.ts";
import { CreateBridgeSchema } from "../bridges/bridge-config.ts";
import { checkPackageFile, type InstalledPackage } from "../plugins/package-record.ts";
import { BRIDGE_ID, BRIDGES_FILE, CONFIG_FILES, PLUGIN_PACKAGES_FILE } from "./backup-layout.ts";
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, type BackupManifest, ManifestSchema } from "./backup-manifest.ts";

/**
 * A bridge as `bridges.json` stores it, checked with the same rules as a created bridge: a restored hub must
 * be able to start from it.
 */
const StoredBridgeSchema = v.looseObject({
  ...CreateBridgeSchema.entries,
  id: v.pipe(v.string(), v.regex(BRIDGE_ID, "id must be 1-64 letters, digits, _ or -")),
  passcode: v.pipe(v.number(), v.integer()),
  discriminator: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(4095)),
});
export type StoredBridge = v.InferOutput<typeof StoredBridgeSchema>;

const BridgesFileSchema = v.object({
  version: v.literal(1, "unknown bridges.json version"),
  bridges: v.pipe(
    v.array(StoredBridgeSchema),
    v.check((list) => new Set(list.map((b) => b.id)).size === list.length, "bridge ids repeat"),
    v.check((list) => new Set(list.map((b) => b.port)).size === list.length, "bridge ports repeat"),
  ),
});
const VersionedFileSchema = v.looseObject({ version: v.literal(1, "unknown file version") });
/** settings.json belongs to the settings service, which gives it no version field: an object is all we require. */
const isObject = (value: unknown) => typeof value === "object" && value !== null && !Array.isArray(value);
const AnyObjectSchema = v.pipe(v.unknown(), v.check(isObject, "must be a JSON object"), v.record(v.string(), v.unknown()));
/** A plugin's `state.json` (plugin-files.ts SlotRecord): it decides whether the plugin runs after the restart. */
const PluginStateSchema = v.pipe(
  v.unknown(),
  v.check(isObject, "must be a JSON object"),
  v.looseObject({
    enabled: v.optional(v.boolean()),
    autoDisabled: v.optional(v.boolean()),
    failures: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
    lastError: v.optional(v.nullable(v.string())),
  }),
);
const PLUGIN_FILE = /^plugins\/([^/]+)\/([^/]+)\/(state|config|storage)\.json$/;

/** What the hub reads from a verified archive besides the bytes of its files. */
export interface ArchiveContent {
  /** The bridges of the backup's `bridges.json` (none when it has no such file). */
  bridges: StoredBridge[];
  /** The records of the backup's `plugin-packages.json`, each one through the record check of an install. */
  packages: InstalledPackage[];
  /** Every `plugins/<bridgeId>/<folder>/state.json`, with its `enabled`. */
  pluginStates: { bridgeId: string; folder: string; enabled: boolean | undefined }[];
}

/** Parses `manifest.json`: not JSON, another format or another version each get their own message. */
export function checkManifest(data: Buffer): BackupManifest {
  const document = parseJson("manifest.json", data) as { format?: unknown; formatVersion?: unknown } | null;
  if (document?.format !== BACKUP_FORMAT)
    throw invalidContent(`not a Matter Hub backup (format ${JSON.stringify(document?.format)})`);
  if (document.formatVersion !== BACKUP_FORMAT_VERSION) {
    throw invalidContent(
      `unsupported backup format version ${JSON.stringify(document.formatVersion)} (this hub restores version ${BACKUP_FORMAT_VERSION})`,
    );
  }
  const result = v.safeParse(ManifestSchema, document);
  if (!result.success) throw invalidContent(`manifest.json: ${describeIssues(result.issues)}`);
  return result.output;
}

/**
 * Checks what the hub will load from a restored file and notes what the preview reports: configuration files and
 * endpoint identities must be JSON of a known version, `bridges.json` valid bridges, `plugin-packages.json` records
 * that pass the install API's record check (package-record.ts: a restored record is untrusted input that names
 * folders, npm arguments and code to run), and a plugin's state, configuration and storage JSON objects. Matter
 * storage is the business of matter.js; its sha256 has been checked.
 */
export function checkContent(path: string, data: Buffer, into: ArchiveContent, reservedPluginNames: readonly string[]): void {
  const plugin = PLUGIN_FILE.exec(path);
  if (plugin) {
    const [, bridgeId = "", folder = "", file] = plugin;
    const schema = file === "state" ? PluginStateSchema : AnyObjectSchema;
    const result = v.safeParse(schema, parseJson(path, data));
    if (!result.success) throw invalidContent(`${path}: ${describeIssues(result.issues)}`);
    if (file === "state") into.pluginStates.push({ bridgeId, folder, enabled: (result.output as { enabled?: boolean }).enabled });
    return;
  }
  const isConfig = (CONFIG_FILES as readonly string[]).includes(path) || path.startsWith("identities/");
  if (!isConfig) return;
  const document = parseJson(path, data);
  const schema = path === BRIDGES_FILE ? BridgesFileSchema : path === "settings.json" ? AnyObjectSchema : VersionedFileSchema;
  const result = v.safeParse(schema, document);
  if (!result.success) throw invalidContent(`${path}: ${describeIssues(result.issues)}`);
  if (path === BRIDGES_FILE) into.bridges = (result.output as v.InferOutput<typeof BridgesFileSchema>).bridges;
  if (path === PLUGIN_PACKAGES_FILE) {
    const check = checkPackageFile(document, reservedPluginNames);
    if (check.problem) throw invalidContent(`${path}: ${check.problem}`);
    const refused = check.refused.map(({ name, reason }) => `${JSON.stringify(name)}: ${reason}`);
    if (refused.length > 0) throw invalidContent(`${path}: refused package records: ${refused.slice(0, 5).join("; ")}`);
    into.packages = check.records;
  }
}

function parseJson(path: string, data: Buffer): unknown {
  try {
    return JSON.parse(data.toString("utf8"));
  } catch {
    throw invalidContent(`${path} is not valid JSON`);
  }
}

const invalidContent = (reason: string) => badRequest(`Invalid backup: ${reason}`);
