/**
 * Runs npm for the installer. Security stance (docs/plugins.md): packages install with `--ignore-scripts`, so no
 * install script of a plugin or of any of its dependencies runs at install time (native add-ons are therefore not
 * supported), and with `--omit=dev`. A plugin still runs in-process with the hub's rights once enabled: install
 * only plugins you trust.
 */
import { execFile } from "node:child_process";

/** Options for {@link createNpmRunner}; tests point npm at a local registry and a private cache through `env`. */
export interface NpmOptions {
  /** The npm executable; default `npm` from PATH. */
  command?: string;
  /** Extra environment, e.g. `{npm_config_registry: "http://127.0.0.1:4873/", npm_config_cache: "/tmp/x"}`. */
  env?: Record<string, string>;
  /** Per npm run; default 5 minutes. */
  timeoutMs?: number;
}

/** A failed npm run; the message ends with npm's own last error lines. */
export class NpmError extends Error {
  override name = "NpmError";
}

export interface NpmRunner {
  /** Runs `npm <args>` with the fixed safety flags in `prefix`; resolves with stdout. */
  run(args: readonly string[], prefix: string): Promise<string>;
  /**
   * The hub stops: running npm processes are ended and new runs refused, so a stop (or an in-process restart after
   * a restore) never waits minutes for a reinstall, nor leaves npm writing the folder the next hub uses.
   */
  close(): void;
}

/** Flags on every install: no scripts, no dev dependencies, quiet. */
export const NPM_SAFETY_FLAGS = [
  "--ignore-scripts",
  "--omit=dev",
  "--no-audit",
  "--no-fund",
  "--no-update-notifier",
  "--loglevel=error",
];

/** The last npm error lines, without npm's "A complete log" noise. */
function errorTail(stderr: string): string {
  const lines = stderr
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !/complete log of this run|A complete log/i.test(line));
  return lines.slice(-4).join(" | ").slice(0, 600);
}

export function createNpmRunner(options: NpmOptions = {}): NpmRunner {
  const command = options.command ?? "npm";
  const stopping = new AbortController();
  const stopped = (args: readonly string[]) => new NpmError(`npm ${args[0]} failed: the hub is stopping`);
  return {
    close: () => stopping.abort(),
    run(args, prefix) {
      if (stopping.signal.aborted) return Promise.reject(stopped(args));
      const fullArgs = [...args, "--prefix", prefix, ...NPM_SAFETY_FLAGS];
      return new Promise((resolve, reject) => {
        execFile(
          command,
          fullArgs,
          {
            cwd: prefix,
            env: { ...process.env, ...options.env },
            timeout: options.timeoutMs ?? 300_000,
            maxBuffer: 16 * 1024 * 1024,
            signal: stopping.signal,
          },
          (error, stdout, stderr) => {
            if (!error) return resolve(stdout);
            if (stopping.signal.aborted) return reject(stopped(args));
            if ((error as NodeJS.ErrnoException).code === "ENOENT") {
              return reject(new NpmError(`npm ${args[0]} failed: npm (${command}) is not installed on this system`));
            }
            const reason = errorTail(String(stderr)) || error.message;
            reject(new NpmError(`npm ${args.join(" ")} failed: ${reason}`));
          },
        );
      });
    },
  };
}
