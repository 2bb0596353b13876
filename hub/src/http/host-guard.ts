import { isIP } from "node:net";
import type { Context, MiddlewareHandler } from "hono";
import { HttpError } from "../../../lib/http-error.ts";
import { normalHost } from "../../../lib/same-origin.ts";

/** Suffixes no public DNS name can have (RFC 6762 `.local`, RFC 8375 `.home.arpa`, ICANN's `.internal`) plus `.lan`. */
const LOCAL_SUFFIXES = [".local", ".lan", ".home.arpa", ".internal", ".localhost"];

export interface HostGuardOptions {
  /** HUB_ALLOWED_HOSTS: further names (`.example.com` allows every name under it, `*` any name). */
  allowedHosts: readonly string[];
  /** True while the hub requires credentials: a rebound name never gets the browser's credentials for the hub. */
  authenticated: () => boolean;
  /** Requests forwarded by Home Assistant's ingress proxy carry HA's own host name, whatever it is. */
  viaIngress: (c: Context) => boolean;
}

/** The host name of a `Host` header without port, brackets or trailing dot. */
function hostName(host: string): string {
  const name = host.startsWith("[") ? host.slice(1, host.indexOf("]")) : host.replace(/:\d*$/, "");
  return name.endsWith(".") ? name.slice(0, -1) : name;
}

/** Names an attacker cannot point at this hub through public DNS: IP literals, single labels, local suffixes. */
export function isLocalName(name: string): boolean {
  if (isIP(name) !== 0 || name === "localhost" || !name.includes(".")) return true;
  return LOCAL_SUFFIXES.some((suffix) => name.endsWith(suffix));
}

function allowedBy(list: readonly string[], name: string): boolean {
  return list.some((entry) =>
    entry === "*" ? true : entry.startsWith(".") ? name.endsWith(entry) || name === entry.slice(1) : name === entry,
  );
}

/**
 * DNS-rebinding defence (docs/http-edge.md): a page on `attacker.example` whose name is re-pointed to the hub's
 * address becomes "same origin" with the hub in the browser, so Origin checks pass and responses can be read. Such
 * requests carry the attacker's name in `Host`; while the hub answers without credentials, only names that cannot
 * come from public DNS (and HUB_ALLOWED_HOSTS) are answered, others get 403. Requests without `Host` (HTTP/1.0 tools)
 * pass; browsers always send it.
 */
export function hostGuard(options: HostGuardOptions): MiddlewareHandler {
  const allowed = options.allowedHosts.map((entry) => entry.toLowerCase());
  return async (c, next) => {
    if (options.authenticated() || options.viaIngress(c)) return next();
    const header = c.req.header("host");
    if (header === undefined) return next();
    const host = normalHost(header);
    const name = host === undefined ? undefined : hostName(host);
    if (name === undefined || !(isLocalName(name) || allowedBy(allowed, name))) {
      throw new HttpError(
        403,
        "Host name not allowed: without credentials this hub answers IP addresses, localhost and local names (.local, .lan, .home.arpa, .internal, single-label); add other names to HUB_ALLOWED_HOSTS or set hub credentials",
      );
    }
    return next();
  };
}
