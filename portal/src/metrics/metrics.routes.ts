import { createHash, timingSafeEqual } from "node:crypto";
import { Hono, type MiddlewareHandler } from "hono";
import { HttpError } from "../../../lib/http-error.ts";
import type { PortalEnv } from "../http/env.ts";
import type { PortalMetrics, TokenOperation } from "./portal-metrics.ts";

const digest = (text: string) => createHash("sha256").update(text).digest();

/** `/api/admin/tokens` changes by method: POST creates, PUT updates, PATCH disables (or enables), DELETE deletes. */
const TOKEN_OPERATIONS: Record<string, TokenOperation> = { POST: "create", PUT: "update", PATCH: "disable", DELETE: "delete" };
const TOKEN_PATH = /^\/api\/admin\/tokens(\/[^/]+)?\/?$/;

/** Which token operation a request was, if any: a create goes to the collection, a batch to `/batch`, the rest to one token. */
async function tokenOperation(method: string, path: string, body: () => Promise<string>): Promise<TokenOperation | undefined> {
  const operation = TOKEN_OPERATIONS[method];
  const match = operation === undefined ? null : TOKEN_PATH.exec(path);
  if (operation === undefined || !match) return undefined;
  if (operation === "create") return match[1] === undefined ? "create" : match[1] === "/batch" ? "batch" : undefined;
  if (match[1] === undefined) return undefined;
  if (operation !== "disable") return operation;
  // PATCH's body (already read, size-limited and cached by the handler) says `{"action":"enable"}` for an enable.
  return actionOf(await body().catch(() => "")) === "enable" ? "enable" : "disable";
}

/** The `action` of a PATCH body, if it is a JSON object with a string one; anything else (empty, malformed) none. */
function actionOf(text: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null && "action" in parsed && typeof parsed.action === "string"
      ? parsed.action
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Counts sign-ups (`POST /api/register`) and administrators' token changes by how the portal answered them. Mounted
 * after the session guard of `/api/admin/*`, so only an administrator's request counts as a token operation.
 */
export function countOutcomes(metrics: PortalMetrics): MiddlewareHandler<PortalEnv> {
  return async (c, next) => {
    await next();
    const { method, path } = c.req;
    if (method === "POST" && (path === "/api/register" || path === "/api/register/")) metrics.signUp(c.res.status);
    const operation = await tokenOperation(method, path, () => c.req.text());
    if (operation !== undefined) metrics.tokenOperation(operation, c.res.status);
  };
}

/**
 * `GET /api/metrics/prometheus`: the portal's metrics in the Prometheus text format, for a scraper holding
 * PORTAL_METRICS_TOKEN as a bearer token (Prometheus `authorization: {credentials: …}`). Without that setting the
 * endpoint is off (404); a missing or wrong token gets 401. The portal faces the internet and has no HTTP Basic
 * users (administrators log in with a session), so a scrape token of its own, which opens nothing else, guards it.
 */
export function metricsRoutes(metrics: PortalMetrics, token: string | undefined): Hono<PortalEnv> {
  const expected = token === undefined ? undefined : digest(token);
  return new Hono<PortalEnv>().get("/prometheus", async (c) => {
    if (expected === undefined) {
      throw new HttpError(404, "Not found: the metrics endpoint is off; set PORTAL_METRICS_TOKEN to turn it on", "NOT_FOUND");
    }
    const header = c.req.header("authorization") ?? "";
    const presented = /^Bearer (\S+)$/i.exec(header)?.[1];
    if (presented === undefined || !timingSafeEqual(digest(presented), expected)) {
      throw new HttpError(401, "A valid metrics token is required (Authorization: Bearer)", "UNAUTHORIZED", {
        "WWW-Authenticate": 'Bearer realm="portal metrics"',
      });
    }
    const { body, contentType } = await metrics.exposition();
    return c.body(body, 200, { "Content-Type": contentType });
  });
}
