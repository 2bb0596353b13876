/**
 * The one check of a package record (an entry of `plugin-packages.json`), used by the install API before it
 * records a package, by a restore (preview and apply) for the backup's file, and by the hub when it loads the
 * file at start. A restored file is untrusted input: the record names a folder under `plugin-packages/`, an npm
 * operand, an archive under `plugin-uploads/` or a folder to link, and its plugin may be enabled on a bridge, so
 * a record that fails is never acted on (docs/plugins.md "Package records", docs/backup.md "Plugins").
 */
import { isAbsolute } from "node:path";
import * as v from "valibot";
import { describeIssues } from "../../../lib/validate.ts";
import { packageNameProblem, parsePackageSpec } from "./package-name.ts";

/** Where a package came from. */
export type PackageSource =
  /** `npm install <spec>` from the registry. */
  | { type: "registry"; spec: string }
  /** An uploaded archive kept as `plugin-uploads/<file>`. */
  | { type: "upload"; file: string }
  /** A symlink to a local folder (development). */
  | { type: "local"; path: string };

export interface InstalledPackage {
  name: string;
  version: string;
  description: string;
  source: PackageSource;
  installedAt: string;
  hubPluginApiVersion: number | null;
}

/** A name the installer gives an uploaded archive: one plain file name inside `plugin-uploads/`. */
const UPLOAD_FILE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,250}\.tgz$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;

const text = (max: number) =>
  v.pipe(
    v.string(),
    v.maxLength(max),
    v.check((value) => !CONTROL.test(value), "control character"),
  );

const SourceSchema = v.variant("type", [
  v.object({
    type: v.literal("registry"),
    spec: v.pipe(
      v.string(),
      v.check(
        (spec) => spec === spec.trim() && !("problem" in parsePackageSpec(spec)),
        "not a registry spec the install API accepts",
      ),
    ),
  }),
  v.object({ type: v.literal("upload"), file: v.pipe(v.string(), v.regex(UPLOAD_FILE, "not a plain .tgz file name")) }),
  v.object({
    type: v.literal("local"),
    path: v.pipe(
      text(4096),
      v.check((path) => isAbsolute(path), "not an absolute folder path"),
    ),
  }),
]);

const RecordSchema = v.object({
  name: v.string(),
  version: v.pipe(text(256), v.nonEmpty("empty")),
  description: text(10_000),
  source: SourceSchema,
  installedAt: text(64),
  hubPluginApiVersion: v.nullable(v.pipe(v.number(), v.integer())),
});

/** The outcome of {@link checkPackageRecord}: the record, or why it is refused. */
export type RecordCheck = { ok: true; record: InstalledPackage } | { ok: false; reason: string };

/**
 * Checks one record (`key` is its key in the file; a record of its own is checked with its name): npm's name rule,
 * not a built-in's name, a registry spec that the install API's parser accepts and that names this package, an
 * upload file name without a path, an absolute local path, and the plain fields' types.
 */
export function checkPackageRecord(key: string, raw: unknown, reservedNames: readonly string[]): RecordCheck {
  const nameProblem = packageNameProblem(key);
  if (nameProblem) return { ok: false, reason: nameProblem };
  if (reservedNames.includes(key)) return { ok: false, reason: `"${key}" is the name of a built-in plugin` };
  const result = v.safeParse(RecordSchema, raw);
  if (!result.success) return { ok: false, reason: `invalid record (${describeIssues(result.issues)})` };
  const record = result.output;
  if (record.name !== key) return { ok: false, reason: `the record is keyed "${key}" but names "${record.name}"` };
  if (record.source.type === "registry") {
    const spec = parsePackageSpec(record.source.spec);
    if ("name" in spec && spec.name !== key) return { ok: false, reason: `its spec installs ${spec.name}, not ${key}` };
  }
  return { ok: true, record };
}

/** The records of a parsed `plugin-packages.json`, split into usable ones and refused ones with their reasons. */
export interface PackageFileCheck {
  records: InstalledPackage[];
  refused: { name: string; raw: unknown; reason: string }[];
  /** Set when `packages` is not an object of records at all. */
  problem?: string;
}

/** Checks every record of a parsed `plugin-packages.json` document (`{version: 1, packages: {name: record}}`). */
export function checkPackageFile(document: unknown, reservedNames: readonly string[]): PackageFileCheck {
  const packages = (document as { packages?: unknown } | null | undefined)?.packages ?? {};
  const check: PackageFileCheck = { records: [], refused: [] };
  if (typeof packages !== "object" || packages === null || Array.isArray(packages)) {
    return { ...check, problem: "packages must be an object of records" };
  }
  for (const [name, raw] of Object.entries(packages)) {
    const result = checkPackageRecord(name, raw, reservedNames);
    if (result.ok) check.records.push(result.record);
    else check.refused.push({ name, raw, reason: result.reason });
  }
  return check;
}
