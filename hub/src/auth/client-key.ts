import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";

/** The Supervisor's ingress proxy: in the add-on every ingress request comes from this address. */
export const SUPERVISOR_INGRESS_PROXY = "172.30.32.2";

/**
 * The ingress proxy's address when the hub runs as the add-on: only when the allow-list names the Supervisor's proxy
 * (run.sh sets it), so that outside the add-on no address is trusted (a LAN or Docker host may well have
 * 172.30.32.2). Requests from it with `X-Ingress-Path` need no hub login (http/ingress.ts `ingressAuthenticated`);
 * others from it are told apart by HA user below.
 */
export function ingressProxyOf(allowedIps: readonly string[]): string | undefined {
  return allowedIps.includes(SUPERVISOR_INGRESS_PROXY) ? SUPERVISOR_INGRESS_PROXY : undefined;
}

/** HA user ids are 32 hex digits; a short plain token is all that is taken as part of a key. */
const HA_USER_ID = /^[A-Za-z0-9_-]{1,64}$/;

function remoteAddress(c: Context): string | undefined {
  try {
    const address = getConnInfo(c).remote.address;
    return address?.startsWith("::ffff:") ? address.slice(7) : address;
  } catch {
    // No socket: an in-process `app.request` (tests).
    return undefined;
  }
}

/**
 * Who a login attempt counts against for the login brake: the remote address (IPv6 addresses one by one). Ingress
 * requests never get here (they need no login), but a request from the Supervisor's proxy without `X-Ingress-Path`
 * does: its key is the HA user the Supervisor names in `X-Remote-User-Id` (it drops any value a browser sends), so
 * one HA user's mistakes never lock out another. Without that header all such requests share one key.
 */
export function clientKey(c: Context, ingressProxy: string | undefined): string {
  const address = remoteAddress(c);
  if (address === undefined) return "local";
  if (ingressProxy === undefined || address !== ingressProxy) return address;
  const user = c.req.header("X-Remote-User-Id");
  return user !== undefined && HA_USER_ID.test(user) ? `ingress user ${user}` : "ingress";
}
