import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context, MiddlewareHandler } from "hono";
import { HttpError } from "../../../lib/http-error.ts";

/**
 * Home Assistant's ingress proxy strips `/api/hassio_ingress/<token>` and passes it in `X-Ingress-Path`. The UI
 * needs it as `<base href>` so its relative URLs resolve under the proxy. Only plain path segments are
 * accepted: anything else (quotes, angle brackets, `..`, schemes) is refused and never reflected.
 */
const SAFE_INGRESS_PATH = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+\/?$/;

export function ingressBase(header: string | undefined): string {
  if (header === undefined || header === "" || header === "/") return "/";
  if (header.length > 256 || !SAFE_INGRESS_PATH.test(header) || header.split("/").includes("..")) {
    throw new HttpError(400, "Invalid X-Ingress-Path header");
  }
  return header.endsWith("/") ? header : `${header}/`;
}

const normalise = (address: string) => (address.startsWith("::ffff:") ? address.slice(7) : address);

/**
 * In the add-on the hub's port is the ingress port on the host network: only the Supervisor's proxy
 * (172.30.32.2) and loopback (the container's health check) may talk to it. Empty list = no restriction.
 */
export function ipAllowList(allowed: readonly string[]): MiddlewareHandler {
  const set = new Set(allowed.map(normalise));
  return async (c, next) => {
    if (set.size > 0) {
      const remote = normalise(getConnInfo(c).remote.address ?? "");
      if (!set.has(remote)) throw new HttpError(403, "Forbidden: this port only answers Home Assistant's ingress proxy");
    }
    await next();
  };
}

/** The socket's remote address, or undefined for an in-process `app.request` without one (tests). */
function remoteOf(c: Context): string | undefined {
  try {
    const address = getConnInfo(c).remote.address;
    return address === undefined ? undefined : normalise(address);
  } catch {
    return undefined;
  }
}

/**
 * Whether Home Assistant has authenticated the request already: it was forwarded by the Supervisor's ingress proxy.
 * Home Assistant Core serves `/api/hassio_ingress/<token>/...` and forwards it, with `X-Ingress-Path` set, to the
 * Supervisor, which refuses it (401) without a valid ingress session (a logged-in HA user's cookie) and otherwise
 * connects to the add-on from its own address, 172.30.32.2 (docs/ingress.md). So the rule is the socket's address
 * first (`proxy`, from client-key.ts `ingressProxyOf`: only in the add-on), and `X-Ingress-Path` as a second sign.
 * Headers alone never count: loopback is on the add-on's allow-list too, and with the host network any process on
 * the host (other add-ons included) reaches loopback and can send any header.
 */
export function ingressAuthenticated(proxy: string | undefined): (c: Context) => boolean {
  if (proxy === undefined) return () => false;
  const trusted = normalise(proxy);
  return (c) => c.req.header("X-Ingress-Path") !== undefined && remoteOf(c) === trusted;
}

/**
 * Whether a request was forwarded by Home Assistant's ingress proxy: it carries `X-Ingress-Path` and comes from an
 * allow-listed address (the allow-list is set only in the add-on; without it anyone could send the header).
 */
export function ingressProxied(allowed: readonly string[]): (c: Context) => boolean {
  const set = new Set(allowed.map(normalise));
  return (c) =>
    set.size > 0 && c.req.header("X-Ingress-Path") !== undefined && set.has(normalise(getConnInfo(c).remote.address ?? ""));
}
