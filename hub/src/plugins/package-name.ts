/**
 * Package names and registry specs: the one parser for what the install API accepts, what `plugin-packages.json`
 * may record (a restored backup's too) and what ever reaches npm as a package operand (docs/plugins.md
 * "Package records"). Names become folders (`plugin-packages/node_modules/<name>`) and specs npm arguments, so
 * anything beyond npm's name rule and a plain version, range or tag is refused, never passed on.
 */
import { isAbsolute, relative, sep } from "node:path";

/**
 * npm's package name rule for new packages (validate-npm-package-name), as one pattern: lower case, URL-safe,
 * optionally scoped, never starting with `.` or `_`; so never `..`, never a path and never an option.
 */
export const PACKAGE_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
const MAX_NAME_LENGTH = 214;
/** Names npm itself refuses although they fit the pattern. */
const NPM_RESERVED = new Set(["node_modules", "favicon.ico"]);
/** A version, range or dist-tag: semver characters only, no spaces, URLs, paths or leading `-`. */
const RANGE = /^[A-Za-z0-9.^~<>=*|][A-Za-z0-9._^~<>=*|-]{0,127}$/;

/** Why `name` is not a package name npm would accept (the reason, without the name); `undefined` when it is one. */
export function packageNameProblem(name: unknown): string | undefined {
  if (typeof name !== "string" || name === "") return "a package name is required";
  if (name.length > MAX_NAME_LENGTH) return `a package name has at most ${MAX_NAME_LENGTH} characters`;
  if (!PACKAGE_NAME.test(name) || NPM_RESERVED.has(name.split("/").at(-1) ?? "")) {
    return "not a valid npm package name (lower case letters, digits, - . _ ~, optionally @scope/)";
  }
  return undefined;
}

/** A registry spec split into its package name and optional version, range or tag. */
export interface PackageSpec {
  name: string;
  range: string | undefined;
}

/**
 * Splits `name`, `@scope/name` or `name@version-range-or-tag`; anything else (paths, URLs, git and `file:` specs,
 * aliases, options such as `--registry=…`) is refused with the reason.
 */
export function parsePackageSpec(spec: string): PackageSpec | { problem: string } {
  const trimmed = spec.trim();
  const at = trimmed.indexOf("@", 1);
  const name = at === -1 ? trimmed : trimmed.slice(0, at);
  const range = at === -1 ? undefined : trimmed.slice(at + 1);
  const invalid = { problem: `"${spec}" is not a package name (expected name, @scope/name or name@version)` };
  if (packageNameProblem(name) !== undefined) return invalid;
  if (range !== undefined && !RANGE.test(range)) return invalid;
  return { name, range };
}

/** True when `path` is strictly below `root` (both absolute, already resolved or real paths). */
export function isInsideFolder(root: string, path: string): boolean {
  const inside = relative(root, path);
  return inside !== "" && inside !== ".." && !inside.startsWith(`..${sep}`) && !isAbsolute(inside);
}
