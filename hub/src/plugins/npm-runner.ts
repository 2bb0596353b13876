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
  /**
   * Runs `npm <args> --prefix <prefix> <safety flags> -- <operands>` and resolves with stdout. `args` are the
   * command and the hub's own flags; `operands` (package specs, names, archive paths) come after `--`, so npm
   * never reads one as an option (a spec such as `--registry=…` is a package npm cannot find, not a setting).
   */
  run(args: readonly string[], prefix: string, operands?: readonly string[]): Promise<string>;
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

/**
 * The hub's own secrets (HA token, Supervisor token, login password, the portal's keys) are no business of npm or of
 * anything it fetches: they are left out of its environment. npm's own variables (`npm_config_*`, `NPM_TOKEN` for a
 * private registry the user configured) pass.
 */
const SECRET_NAME = /TOKEN|PASSWORD|SECRET|(^|_)KEY$/i;
export function npmEnvironment(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(base).filter(([name]) => /^npm_/i.test(name) || !SECRET_NAME.test(name)));
}

export function createNpmRunner(options: NpmOptions = {}): NpmRunner {
  const command = options.command ?? "npm";
  const stopping = new AbortController();
  const stopped = (args: readonly string[]) => new NpmError(`npm ${args[0]} failed: the hub is stopping`);
  return {
    close: () => stopping.abort(),
    run(args, prefix, operands = []) {
      if (stopping.signal.aborted) return Promise.reject(stopped(args));
      // Second line behind the record check (package-record.ts): whatever the caller passes, no operand is an option.
      const flagLike = operands.find((operand) => operand.trim().startsWith("-"));
      if (flagLike !== undefined) return Promise.reject(new NpmError(`npm ${args[0]} refused: "${flagLike}" is not a package`));
      const fullArgs = [...args, "--prefix", prefix, ...NPM_SAFETY_FLAGS, "--", ...operands];
      return new Promise((resolve, reject) => {
        execFile(
          command,
          fullArgs,
          {
            cwd: prefix,
            env: { ...npmEnvironment(process.env), ...options.env },
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
            reject(new NpmError(`npm ${[...args, ...operands].join(" ")} failed: ${reason}`));
          },
        );
      });
    },
  };
}
