import { fileURLToPath, pathToFileURL } from "node:url";

/** Repository root (this file is bench/lib/paths.ts). */
export const REPO = fileURLToPath(new URL("../..", import.meta.url));
/** Where `bench/tsconfig.build.json` compiles the hub, the portal and the reference (never dist/server). */
export const BUILD_DIR = `${REPO}dist/bench`;
export const RESULTS_DIR = `${REPO}bench/results`;

/** How the measured processes run: compiled JavaScript as in production, or TypeScript through tsx. */
export type Runtime = "compiled" | "tsx";

/** The node arguments that run `source` (a repo-relative .ts path) with the probe preloaded. */
export function nodeArgsFor(source: string, runtime: Runtime): string[] {
  if (runtime === "tsx") {
    return ["--import", "tsx", "--import", pathToFileURL(`${REPO}bench/sut-probe.ts`).href, `${REPO}${source}`];
  }
  const compiled = (path: string) => `${BUILD_DIR}/${path.replace(/\.ts$/, ".js")}`;
  return ["--import", pathToFileURL(compiled("bench/sut-probe.ts")).href, compiled(source)];
}
