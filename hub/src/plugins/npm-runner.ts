/**
 * Runs npm for the installer. Security stance (docs/plugins.md): packages install with `--ignore-scripts`, so no
 * install script of a plugin or of any of its dependencies runs at install time (native add-ons are therefore not
 * supported), and with `--omit=dev`. A plugin still runs in-process with the hub's rights once enabled: install
 * only plugins you trust.
 *
 * Each run is its own process group, so a cancel (or the hub stopping) ends npm and anything it started at once.
 * A run that follows progress gets npm's log lines as they come; a failed run becomes an {@link NpmError} with one
 * sentence and npm's output as details (npm-failure.ts).
 */
import { spawn } from "node:child_process";
import { describeNpmFailure, NpmError, redactNpmOutput } from "./npm-failure.ts";

export { NpmError } from "./npm-failure.ts";

/** Options for {@link createNpmRunner}; tests point npm at a local registry and a private cache through `env`. */
export interface NpmOptions {
  /** The npm executable; default `npm` from PATH. */
  command?: string;
  /** Extra environment, e.g. `{npm_config_registry: "http://127.0.0.1:4873/", npm_config_cache: "/tmp/x"}`. */
  env?: Record<string, string>;
  /** Per npm run; default 5 minutes. */
  timeoutMs?: number;
  /** Between SIGTERM and SIGKILL to npm's process group; default 3 s. */
  killGraceMs?: number;
}

/** What one run may follow and end. */
export interface NpmRunOptions {
  /** Aborting it ends npm's process group; the run rejects with an {@link NpmError} coded `cancelled`. */
  signal?: AbortSignal;
  /**
   * Each line npm writes (stderr and stdout), as it comes. With it npm logs at `silly` level, which names every
   * step (idealTree, fetch, reify, ADD); without it at `error` level.
   */
  onLine?: (line: string) => void;
}

export interface NpmRunner {
  /**
   * Runs `npm <args> --prefix <prefix> <safety flags> -- <operands>` and resolves with stdout. `args` are the
   * command and the hub's own flags; `operands` (package specs, names, archive paths) come after `--`, so npm
   * never reads one as an option (a spec such as `--registry=…` is a package npm cannot find, not a setting).
   */
  run(args: readonly string[], prefix: string, operands?: readonly string[], options?: NpmRunOptions): Promise<string>;
  /**
   * The hub stops: running npm processes are ended and new runs refused, so a stop (or an in-process restart after
   * a restore) never waits minutes for a reinstall, nor leaves npm writing the folder the next hub uses.
   */
  close(): void;
}

/** Flags on every run: no scripts, no dev dependencies, quiet. The log level follows (`error`, or `silly`). */
export const NPM_SAFETY_FLAGS = ["--ignore-scripts", "--omit=dev", "--no-audit", "--no-fund", "--no-update-notifier"];

/**
 * Network settings the hub gives npm unless its environment sets them (`npm_config_fetch_retries` …): npm's own
 * defaults (2 retries, waits of 10 to 60 s, 5 min per request) keep an offline hub busy for about 70 s before the
 * first error. One retry after 1 to 3 s still rides over a dropped connection; an unreachable registry fails in a
 * few seconds. A request that gets no answer at all gives up after 60 s (docs/plugins.md).
 */
export const NPM_NETWORK_DEFAULTS: Record<string, string> = {
  npm_config_fetch_retries: "1",
  npm_config_fetch_retry_mintimeout: "1000",
  npm_config_fetch_retry_maxtimeout: "3000",
  npm_config_fetch_timeout: "60000",
};

/**
 * The hub's own secrets (HA token, Supervisor token, login password, the portal's keys) are no business of npm or of
 * anything it fetches: they are left out of its environment. npm's own variables (`npm_config_*`, `NPM_TOKEN` for a
 * private registry the user configured) pass.
 */
const SECRET_NAME = /TOKEN|PASSWORD|SECRET|(^|_)KEY$/i;
export function npmEnvironment(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(base).filter(([name]) => /^npm_/i.test(name) || !SECRET_NAME.test(name)));
}

/** {@link NPM_NETWORK_DEFAULTS} under `env`: a setting present in any letter case wins. */
function withNetworkDefaults(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const present = new Set(Object.keys(env).map((name) => name.toLowerCase()));
  const defaults = Object.entries(NPM_NETWORK_DEFAULTS).filter(([name]) => !present.has(name));
  return { ...Object.fromEntries(defaults), ...env };
}

const MAX_STDOUT = 16 * 1024 * 1024;
/** npm's output kept for the error's details; the start is dropped first (npm's error is at the end). */
const MAX_KEPT_OUTPUT = 256 * 1024;

export function createNpmRunner(options: NpmOptions = {}): NpmRunner {
  const command = options.command ?? "npm";
  const stopping = new AbortController();
  const stopped = (args: readonly string[]) =>
    new NpmError(`npm ${args[0]} was stopped: the hub is stopping. Nothing was installed.`, "stopping");
  return {
    close: () => stopping.abort(),
    run(args, prefix, operands = [], runOptions = {}) {
      if (stopping.signal.aborted) return Promise.reject(stopped(args));
      const { signal, onLine } = runOptions;
      const subject = operands.join(" ");
      const cancelled = () =>
        new NpmError(`The installation of ${subject || "the package"} was cancelled. Nothing was installed.`, "cancelled");
      if (signal?.aborted) return Promise.reject(cancelled());
      // Second line behind the record check (package-record.ts): whatever the caller passes, no operand is an option.
      const flagLike = operands.find((operand) => operand.trim().startsWith("-"));
      if (flagLike !== undefined) return Promise.reject(new NpmError(`npm ${args[0]} refused: "${flagLike}" is not a package`));
      const logLevel = onLine ? "--loglevel=silly" : "--loglevel=error";
      const fullArgs = [...args, "--prefix", prefix, ...NPM_SAFETY_FLAGS, logLevel, "--", ...operands];
      const timeoutMs = options.timeoutMs ?? 300_000;
      return new Promise((resolve, reject) => {
        const child = spawn(command, fullArgs, {
          cwd: prefix,
          env: withNetworkDefaults({ ...npmEnvironment(process.env), ...options.env }),
          // Its own process group: ending npm ends what it started too (git, a stuck child).
          detached: true,
          stdio: ["ignore", "pipe", "pipe"],
        });
        let stdout = "";
        let output = "";
        let ended: "cancelled" | "stopping" | "timeout" | "overflow" | undefined;
        let killTimer: NodeJS.Timeout | undefined;
        const end = (why: NonNullable<typeof ended>) => {
          if (ended || child.exitCode !== null || child.signalCode !== null) return;
          ended = why;
          killGroup(child.pid, "SIGTERM");
          killTimer = setTimeout(() => killGroup(child.pid, "SIGKILL"), options.killGraceMs ?? 3000);
          killTimer.unref();
        };
        const onCancel = () => end("cancelled");
        const onStop = () => end("stopping");
        signal?.addEventListener("abort", onCancel, { once: true });
        stopping.signal.addEventListener("abort", onStop, { once: true });
        const timer = setTimeout(() => end("timeout"), timeoutMs);
        timer.unref();
        const lines = (emit: boolean) => {
          let partial = "";
          return (chunk: string) => {
            output += chunk;
            if (output.length > MAX_KEPT_OUTPUT) output = output.slice(-MAX_KEPT_OUTPUT);
            if (!emit || !onLine) return;
            const parts = (partial + chunk).split("\n");
            partial = parts.pop() ?? "";
            for (const line of parts) if (line.trim() !== "") onLine(line.replace(/\r$/, ""));
          };
        };
        const onStderr = lines(true);
        const onStdoutLine = lines(args[0] !== "view");
        child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
          stdout += chunk;
          if (stdout.length > MAX_STDOUT) end("overflow");
          onStdoutLine(chunk);
        });
        child.stderr.setEncoding("utf8").on("data", onStderr);
        let spawnError: NodeJS.ErrnoException | undefined;
        child.on("error", (error: NodeJS.ErrnoException) => {
          spawnError = error;
        });
        child.on("close", (exitCode) => {
          clearTimeout(timer);
          if (killTimer) clearTimeout(killTimer);
          signal?.removeEventListener("abort", onCancel);
          stopping.signal.removeEventListener("abort", onStop);
          if (ended === "cancelled") return reject(cancelled());
          if (ended === "stopping") return reject(stopped(args));
          if (ended === "timeout") {
            const minutes = Math.round(timeoutMs / 6000) / 10;
            return reject(
              new NpmError(
                `npm ${args[0]} ${subject} did not finish within ${minutes} min and was stopped. Nothing was installed.`,
                "timeout",
                redactNpmOutput(output),
              ),
            );
          }
          if (ended === "overflow") return reject(new NpmError(`npm ${args[0]} ${subject} wrote more output than the hub reads`));
          if (spawnError?.code === "ENOENT") {
            return reject(new NpmError(`npm ${args[0]} failed: npm (${command}) is not installed on this system`, "npm-missing"));
          }
          if (spawnError) return reject(new NpmError(`npm ${args[0]} failed: ${spawnError.message}`));
          if (exitCode === 0) return resolve(stdout);
          reject(describeNpmFailure(output, args[0] ?? "", subject));
        });
      });
    },
  };
}

/** Signals npm's whole process group; a group already gone is fine. */
function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already ended
  }
}
