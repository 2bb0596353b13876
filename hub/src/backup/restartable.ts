import type { Logger } from "../../../lib/logger.ts";

/** Anything built by a create function and torn down by `stop()` (the hub). */
export interface Stoppable {
  stop(): Promise<void>;
}

export interface Restartable<T extends Stoppable> {
  /** The running instance (undefined before `start`, while a restart is between stop and create, after `stop`). */
  readonly current: T | undefined;
  start(): Promise<T>;
  /** Stops the current instance and creates a new one; concurrent calls share one restart. */
  restart(reason: string): Promise<T>;
  /** Stops for good (waits for a restart in progress first). */
  stop(): Promise<void>;
}

export interface RestartableOptions {
  log: Logger;
  /** Called when the new instance cannot be created; main.ts exits non-zero so the Supervisor takes over. */
  onRestartFailed?: (error: unknown) => void;
}

/**
 * Restarts the hub in-process: stop everything (HTTP server, bridges, Matter environment, HA link), then build
 * it again from the data dir with the same create function main.ts used at start. Cheaper and more reliable
 * than exiting for the Supervisor to restart the add-on (see docs/backup.md, "Restart").
 */
export function restartable<T extends Stoppable>(create: () => Promise<T>, options: RestartableOptions): Restartable<T> {
  let current: T | undefined;
  let restarting: Promise<T> | undefined;
  let stopped = false;

  const restartOnce = async (reason: string): Promise<T> => {
    options.log.warn({ reason }, "restarting the hub in-process");
    try {
      const previous = current;
      current = undefined;
      await previous?.stop();
      current = await create();
      options.log.info({ reason }, "hub restarted");
      return current;
    } catch (error) {
      options.log.fatal({ err: error }, "the hub could not be restarted");
      options.onRestartFailed?.(error);
      throw error;
    } finally {
      restarting = undefined;
    }
  };

  return {
    get current() {
      return current;
    },
    async start() {
      current = await create();
      return current;
    },
    restart(reason) {
      if (stopped) return Promise.reject(new Error("stopped: no restart"));
      restarting ??= restartOnce(reason);
      return restarting;
    },
    async stop() {
      stopped = true;
      await restarting?.catch(() => undefined);
      const last = current;
      current = undefined;
      await last?.stop();
    },
  };
}
