/**
 * docs/plugins.md "Errors": unhandled rejections from plugin promises are caught at process level and logged; the
 * hub keeps running. The plugin service installs this once when it starts and removes it when it stops; nothing
 * is installed at import time. Without a listener Node 20 would end the process on the first unhandled rejection.
 * Synchronous throws from plugin timers (uncaughtException) keep Node's default: the process state is unknown
 * then, and the add-on watchdog restarts the hub.
 */
import type { Logger } from "../../../lib/logger.ts";

/** The part of `process` the guard uses (tests pass an EventEmitter). */
export interface RejectionSource {
  on(event: "unhandledRejection", listener: (reason: unknown) => void): unknown;
  off(event: "unhandledRejection", listener: (reason: unknown) => void): unknown;
}

/** Logs every unhandled rejection instead of crashing; returns the function that removes the listener. */
export function installRejectionGuard(source: RejectionSource, log: Logger): () => void {
  let count = 0;
  const listener = (reason: unknown) => {
    count++;
    log.error(
      { err: reason instanceof Error ? reason : new Error(String(reason)), count },
      "unhandled promise rejection (a plugin's, most likely); logged, the hub keeps running",
    );
  };
  source.on("unhandledRejection", listener);
  return () => {
    source.off("unhandledRejection", listener);
  };
}
