import type { MiddlewareHandler } from "hono";
import type { Logger } from "./logger.ts";

/**
 * Logs one line per request (method, path without query, status, duration). Health probes and static assets
 * log at debug so a busy panel does not flood the add-on log. Query strings are left out: they can carry tokens.
 */
export function requestLog(log: Logger): MiddlewareHandler {
  // The line is built here from four fixed fields, none of them a secret, so the root logger's redaction (a pass
  // over 30 wildcard paths, about a tenth of a cheap admin request's CPU: docs/PERFORMANCE.md) is switched off
  // for it. Anything else logged keeps the redaction.
  log = log.child({}, { redact: [] });
  return async (c, next) => {
    const started = performance.now();
    await next();
    const path = c.req.path;
    const quiet = path.startsWith("/api/health") || !path.startsWith("/api/");
    const entry = { method: c.req.method, path, status: c.res.status, ms: Math.round(performance.now() - started) };
    if (c.res.status >= 500) log.error(entry, "request failed");
    else if (quiet) log.debug(entry, "request");
    else log.info(entry, "request");
  };
}
