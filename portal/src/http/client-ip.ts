import { BlockList, isIP } from "node:net";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import { BoundedMemo } from "../../../lib/bounded-memo.ts";
import type { Logger } from "../../../lib/logger.ts";

/** Where a request came from, after the trusted-proxy rules. */
export interface RequestOrigin {
  /** The client's IP: the socket peer, or from `X-Forwarded-For` when the peer is a trusted proxy. */
  readonly ip: string;
  /** The host the client addressed (`Host`, or `X-Forwarded-Host` from a trusted proxy), lower-cased. */
  readonly host: string;
  /** The client used HTTPS (directly, or `X-Forwarded-Proto: https` from a trusted proxy). */
  readonly secure: boolean;
}

/** `::ffff:1.2.3.4` → `1.2.3.4`, so one address has one spelling in limits, logs and the audit log. */
export function normalizeIp(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address.toLowerCase();
}

function toBlockList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = "", prefix] = entry.split("/");
    const family = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(normalizeIp(address), family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

/** The headers a reverse proxy adds to name the client; their presence says a request came through one. */
const FORWARDING_HEADERS = ["x-forwarded-for", "forwarded", "x-real-ip"];

/**
 * The warning for the first request that came through a proxy PORTAL_TRUSTED_PROXIES does not list. The portal can
 * only see this when requests arrive, so it says it once then, rather than at start.
 */
export function warnUntrustedProxy(log: Logger): (peer: string, header: string) => void {
  return (peer, header) =>
    log.warn(
      { peer, header, setting: "PORTAL_TRUSTED_PROXIES" },
      `requests arrive through a proxy that is not trusted: ${peer} sends ${header}, which the portal ignores, so every ` +
        "client behind it shares that one address for the per-address limits (login, sign-up). If it is your reverse " +
        "proxy, add it to PORTAL_TRUSTED_PROXIES. (Logged once.)",
    );
}

/**
 * Resolves the client of each request. `X-Forwarded-*` headers are honoured only when the socket peer is in
 * `trustedProxies` (PORTAL_TRUSTED_PROXIES); otherwise anyone could pick their own IP and dodge the rate limits.
 * `X-Forwarded-For` is read from the right: trusted hops are skipped and the first other address is the client.
 * `onUntrustedProxy` is called once, for the first request with a forwarding header from a peer not trusted.
 */
export function createOriginResolver(
  trustedProxies: readonly string[],
  onUntrustedProxy?: (peer: string, header: string) => void,
): (c: Context) => RequestOrigin {
  const trusted = toBlockList(trustedProxies);
  // Answers kept by address: the check builds a SocketAddress each time (a twentieth of a cheap admin request's
  // CPU), and a few peers ask it on every request. Bounded, since X-Forwarded-For hops are the client's to choose.
  const answers = new BoundedMemo<string, boolean>();
  const check = (ip: string) => {
    const family = isIP(ip);
    return family !== 0 && trusted.check(ip, family === 6 ? "ipv6" : "ipv4");
  };
  const isTrusted = (ip: string) => answers.get(ip, check);
  let watching = onUntrustedProxy !== undefined;
  return (c) => {
    let peer = "unknown";
    try {
      peer = normalizeIp(getConnInfo(c).remote.address ?? "unknown");
    } catch {
      // Not served by @hono/node-server (app.request in a unit test): no socket to read.
    }
    const host = (c.req.header("host") ?? "").toLowerCase();
    // The URL the server built from the socket: its scheme is all that is needed here, no parse.
    const secure = c.req.url.startsWith("https:");
    if (!isTrusted(peer)) {
      const header = watching ? FORWARDING_HEADERS.find((name) => c.req.header(name) !== undefined) : undefined;
      if (header !== undefined) {
        watching = false;
        onUntrustedProxy?.(peer, header);
      }
      return { ip: peer, host, secure };
    }

    let ip = peer;
    const hops = (c.req.header("x-forwarded-for") ?? "").split(",").map((hop) => normalizeIp(hop.trim()));
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i] ?? "";
      if (isIP(hop) === 0) break;
      ip = hop;
      if (!isTrusted(hop)) break;
    }
    const forwardedHost = c.req.header("x-forwarded-host")?.split(",")[0]?.trim().toLowerCase();
    const forwardedProto = c.req.header("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
    return {
      ip,
      host: forwardedHost || host,
      secure: forwardedProto === undefined || forwardedProto === "" ? secure : forwardedProto === "https",
    };
  };
}
