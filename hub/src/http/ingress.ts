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

/**
 * Whether a request was forwarded by Home Assistant's ingress proxy: it carries `X-Ingress-Path` and comes from an
 * allow-listed address (the allow-list is set only in the add-on; without it anyone could send the header).
 */
export function ingressProxied(allowed: readonly string[]): (c: Context) => boolean {
  const set = new Set(allowed.map(normalise));
  return (c) =>
    set.size > 0 && c.req.header("X-Ingress-Path") !== undefined && set.has(normalise(getConnInfo(c).remote.address ?? ""));
}
