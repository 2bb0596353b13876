/**
 * Every call into plugin code goes through {@link callPlugin}: it turns a synchronous throw into a rejection and
 * gives up after the time-out (docs/plugins.md "Errors": 10 s per lifecycle call). A plugin promise that settles
 * after its time-out is ignored; the plugin's context is revoked by then, so its late effects are refused.
 */
import type { Clock } from "./clock.ts";

/** The lifecycle time-out of docs/plugins.md "Limits". */
export const LIFECYCLE_TIMEOUT_MS = 10_000;

/** A plugin call that did not settle in time. */
export class PluginTimeoutError extends Error {
  override name = "PluginTimeoutError";
}

/** A plugin call's failure, with the hook named, e.g. `onStart failed: cannot reach the cloud`. */
export class PluginCallError extends Error {
  override name = "PluginCallError";
  constructor(
    readonly hook: string,
    readonly reason: unknown,
  ) {
    super(`${hook} failed: ${describe(reason)}`);
  }
}

/** A readable one-line reason for anything thrown. */
export function describe(reason: unknown): string {
  if (reason instanceof Error) return reason.message || reason.name;
  if (typeof reason === "string") return reason;
  try {
    return JSON.stringify(reason) ?? String(reason);
  } catch {
    return String(reason);
  }
}

/** Runs `fn` with a time-out; rejects with a {@link PluginCallError} (timeouts as {@link PluginTimeoutError}). */
export async function callPlugin<T>(hook: string, fn: () => T | Promise<T>, clock: Clock, timeoutMs: number): Promise<T> {
  let cancel: (() => void) | undefined;
  const timeout = new Promise<never>((_, reject) => {
    cancel = clock.setTimeout(() => reject(new PluginTimeoutError(`did not finish within ${formatMs(timeoutMs)}`)), timeoutMs);
  });
  try {
    const work = Promise.resolve().then(fn);
    // A late rejection of the abandoned call must not surface as an unhandled rejection.
    work.catch(() => undefined);
    return await Promise.race([work, timeout]);
  } catch (error) {
    throw new PluginCallError(hook, error);
  } finally {
    cancel?.();
  }
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
