import { ConfigError } from "./config-env.ts";

/** What a server's `start` returns: a way to stop everything it started, in reverse order. */
export interface Started {
  stop(reason: string): Promise<void>;
}

/**
 * The shared shape of a composition root: start, then on SIGTERM/SIGINT stop once and exit 0. A configuration
 * error prints one readable line and exits 1; any other start failure is logged with its stack and exits 1.
 * A second signal while stopping exits at once with 130 (the user insisted).
 */
export async function runMain(name: string, start: () => Promise<Started>): Promise<void> {
  let started: Started;
  try {
    started = await start();
  } catch (error) {
    if (error instanceof ConfigError) process.stderr.write(`${name}: ${error.message}\n`);
    else
      process.stderr.write(
        `${name}: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
    process.exit(1);
  }
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130);
    stopping = true;
    started.stop(signal).then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`${name}: error while stopping: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}
