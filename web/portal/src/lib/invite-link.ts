/**
 * Invite links: the public sign-up page with the server and the registration token filled in. The token rides in
 * the fragment (`#token=…`), which browsers never send: it stays out of the portal's and every proxy's request logs,
 * out of `Referer` headers, and out of the GET a chat app makes to build a link preview (docs/invites.md). The page
 * reads it from there, and still from `?token=` for links made before.
 */

/** What a link needs of the server: its slug, and its own public domain when it has one. */
export interface InviteServer {
  slug: string;
  publicDomain: string | null;
}

/**
 * The invite link of `token` on `server`: on the server's own domain when it has one (the page finds the server by
 * domain), otherwise the portal's page (`base`: the document's base, the address the console was opened with) with
 * `?server=<slug>`, which keeps working if the default server changes later.
 */
export function inviteLink(server: InviteServer, token: string, base: string = document.baseURI): string {
  const url = server.publicDomain ? new URL(`https://${server.publicDomain}/`) : new URL("./", base);
  if (!server.publicDomain) url.searchParams.set("server", server.slug);
  url.hash = `token=${encodeURIComponent(token)}`;
  return url.toString();
}

/** The token a page address carries: `#token=` first, then the older `?token=`; "" without one. */
export function tokenOf(address: { hash: string; search: string }): string {
  const fromHash = new URLSearchParams(address.hash.replace(/^#/, "")).get("token");
  return (fromHash ?? new URLSearchParams(address.search).get("token") ?? "").trim();
}

/**
 * The page's address with a `?token=` moved into the fragment (for `history.replaceState`), so a reload, a bookmark
 * or a shared copy of the address no longer sends it; undefined when there is nothing to move.
 */
export function withTokenInFragment(href: string): string | undefined {
  const url = new URL(href);
  const token = url.searchParams.get("token");
  if (token === null) return undefined;
  url.searchParams.delete("token");
  const fragment = new URLSearchParams(url.hash.replace(/^#/, ""));
  if (!fragment.has("token")) fragment.set("token", token);
  url.hash = fragment.toString();
  return url.toString();
}

const PRIVATE_V4 = [/^10\./, /^127\./, /^192\.168\./, /^169\.254\./, /^172\.(1[6-9]|2\d|3[01])\./];
const LOCAL_SUFFIXES = [".local", ".lan", ".home", ".internal", ".home.arpa", ".localdomain"];

/**
 * Whether people outside the admin's network could not open a link to `host`: a name without a dot, localhost, a
 * local-network suffix (`.local`, `.lan`, `.home.arpa`…), a private or loopback IPv4 address or a local IPv6 one. A
 * warning's trigger, not a verdict: a split-horizon DNS can make any name local.
 */
export function isLocalHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, "");
  if (name.includes(":")) return name === "::1" || /^f[cd]/.test(name) || name.startsWith("fe80");
  if (!name.includes(".") || name === "localhost" || name.endsWith(".localhost")) return true;
  if (LOCAL_SUFFIXES.some((suffix) => name.endsWith(suffix))) return true;
  return PRIVATE_V4.some((range) => range.test(name));
}
