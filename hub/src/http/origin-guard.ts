import type { Context, MiddlewareHandler } from "hono";
import { HttpError } from "../../../lib/http-error.ts";
import { claimedOrigin, normalHost } from "../../../lib/same-origin.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export interface OriginGuardOptions {
  /**
   * Whether the request came through Home Assistant's ingress proxy; its `X-Forwarded-Host` (the host the browser
   * used, should a proxy in front of Home Assistant have rewritten `Host`) then counts as the hub's own host too.
   */
  viaIngress: (c: Context) => boolean;
}

const isUpgrade = (c: Context) => c.req.header("upgrade")?.toLowerCase() === "websocket";

/** The hosts a same-origin request may name: the one it was sent to, and behind ingress the one the browser used. */
function ownHosts(c: Context, viaIngress: boolean): string[] {
  const hosts = [normalHost(c.req.header("host"))];
  if (viaIngress) hosts.push(normalHost(c.req.header("x-forwarded-host")?.split(",")[0]?.trim()));
  return hosts.filter((host): host is string => host !== undefined);
}

/**
 * CSRF defence of the hub (issue 16 item 2; docs/http-edge.md). State-changing requests (anything but GET, HEAD,
 * OPTIONS) and WebSocket upgrades (`/api/ws` streams bridge records with pairing codes; browsers do not apply the
 * same-origin policy to WebSockets) are refused with 403 when the browser says they come from another site:
 * `Sec-Fetch-Site: cross-site`, or an `Origin` (else `Referer`) whose host is not the hub's own (`Host`). Behind Home
 * Assistant's ingress the proxy forwards the browser's headers, so the same comparison holds there. Requests with
 * neither header (curl, scripts, Prometheus) pass: they carry no ambient browser authority.
 */
export function originGuard(options: OriginGuardOptions): MiddlewareHandler {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method) && !isUpgrade(c)) return next();
    if (c.req.header("sec-fetch-site")?.toLowerCase() === "cross-site") {
      throw new HttpError(403, "Cross-site request refused");
    }
    const claimed = claimedOrigin(c.req.header("origin"), c.req.header("referer"));
    if (claimed.kind === "none") return next();
    if (claimed.kind === "opaque" || !ownHosts(c, options.viaIngress(c)).includes(claimed.host)) {
      throw new HttpError(403, "Cross-site request refused: Origin does not match the hub's address");
    }
    return next();
  };
}
