/**
 * The origin-matching piece both servers' CSRF checks share: which host a browser says a request comes from
 * (`Origin`, else `Referer`), compared with the host the request was sent to.
 */

/** `host[:port]` of an absolute http(s) URL, lower-cased; undefined for `null` origins, other schemes and garbage. */
export function originHost(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.host.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/** A `Host` header in the form `originHost` gives (lower-cased, IPv6 in brackets); undefined when it is no host. */
export function normalHost(host: string | undefined): string | undefined {
  if (host === undefined || host === "" || /[/?#@\s\\]/.test(host)) return undefined;
  return originHost(`http://${host}`);
}

export type ClaimedOrigin =
  /** Neither header: not a browser's cross-site request (curl, scripts, Prometheus). */
  | { kind: "none" }
  /** A header that names no http(s) host (`Origin: null` from a sandboxed frame or a privacy redirect, garbage). */
  | { kind: "opaque" }
  | { kind: "host"; host: string };

/** What a request's `Origin` (or, without it, `Referer`) says about where it comes from. */
export function claimedOrigin(origin: string | undefined, referer: string | undefined): ClaimedOrigin {
  const claimed = origin ?? referer;
  if (claimed === undefined) return { kind: "none" };
  const host = originHost(claimed);
  return host === undefined ? { kind: "opaque" } : { kind: "host", host };
}
