import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Repository root (or the app folder in the image), found from this file's place in either layout. */
export function findRepoRoot(fromUrl: string): string {
  let dir = fileURLToPath(new URL(".", fromUrl));
  for (let i = 0; i < 6; i++) {
    try {
      readFileSync(`${dir}/package.json`);
      return dir.replace(/\/$/, "");
    } catch {
      dir = `${dir}/..`;
    }
  }
  throw new Error("package.json not found");
}

/** The application version, from package.json (kept in step with config.yaml's version by a test). */
export function readAppVersion(repoRoot: string): string {
  const pkg = JSON.parse(readFileSync(`${repoRoot}/package.json`, "utf8")) as { version: string };
  return pkg.version;
}
