import * as v from "valibot";
import { badRequest } from "../../../lib/http-error.ts";
import { describeIssues } from "../../../lib/validate.ts";
import { CreateBridgeSchema } from "../bridges/bridge-config.ts";
import { BRIDGE_ID, BRIDGES_FILE, CONFIG_FILES } from "./backup-layout.ts";
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
const AnyObjectSchema = v.record(v.string(), v.unknown(), "must be a JSON object");

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
 * Checks what the hub will load from a restored file: configuration files and endpoint identities must be JSON
 * of a known version, and `bridges.json` valid bridges (returned). Matter storage and plugin files are the
 * business of their owners; their sha256 has been checked.
 */
export function checkContent(path: string, data: Buffer): StoredBridge[] | undefined {
  const isConfig = (CONFIG_FILES as readonly string[]).includes(path) || path.startsWith("identities/");
  if (!isConfig) return undefined;
  const document = parseJson(path, data);
  const schema = path === BRIDGES_FILE ? BridgesFileSchema : path === "settings.json" ? AnyObjectSchema : VersionedFileSchema;
  const result = v.safeParse(schema, document);
  if (!result.success) throw invalidContent(`${path}: ${describeIssues(result.issues)}`);
  return path === BRIDGES_FILE ? (result.output as v.InferOutput<typeof BridgesFileSchema>).bridges : undefined;
}

function parseJson(path: string, data: Buffer): unknown {
  try {
    return JSON.parse(data.toString("utf8"));
  } catch {
    throw invalidContent(`${path} is not valid JSON`);
  }
}

const invalidContent = (reason: string) => badRequest(`Invalid backup: ${reason}`);
