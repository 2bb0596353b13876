import type { MiddlewareHandler } from "hono";
import type { Logger } from "./logger.ts";

/** A request that takes longer than this is logged at info, whatever its answer ("slow request"). */
export const SLOW_REQUEST_MS = 1000;

/**
 * Refusals worth seeing at info: a wrong or missing login (401), a refused address, host or cross-site request
 * (403), a client braked or rate-limited (429). Other 4xx answers (a form's bad value, a missing id) are the UI's
 * business and show there; they stay at debug with the successful requests.
 */
const REFUSALS = new Set([401, 403, 429]);

/**
 * Logs one line per request (method, path without query, status, duration): at debug, so an ordinary panel does
 * not fill the log, except a failure (5xx, error), a refusal (401, 403, 429, info) and a slow request (over
 * SLOW_REQUEST_MS, info). Query strings are left out: they can carry tokens.
 */
export function requestLog(log: Logger, options: { slowMs?: number } = {}): MiddlewareHandler {
  const slowMs = options.slowMs ?? SLOW_REQUEST_MS;
  // The line is built here from four fixed fields, none of them a secret, so the root logger's redaction (a pass
  // over 30 wildcard paths, about a tenth of a cheap admin request's CPU: docs/PERFORMANCE.md) is switched off
  // for it. Anything else logged keeps the redaction.
  log = log.child({}, { redact: [] });
  return async (c, next) => {
    const started = performance.now();
    await next();
    const status = c.res.status;
    const ms = Math.round(performance.now() - started);
    const entry = () => ({ method: c.req.method, path: c.req.path, status, ms });
    if (status >= 500) log.error(entry(), "request failed");
    else if (REFUSALS.has(status)) log.info(entry(), "request refused");
    else if (ms > slowMs) log.info(entry(), "slow request");
    else if (log.isLevelEnabled("debug")) log.debug(entry(), "request");
  };
}
