/**
 * The portal UI's two addresses, both relative to the document base (`<base href>` set by the server): the public
 * sign-up page at `./` (query `?server=<slug>` picks a server, `#token=` fills in an invitation: lib/invite-link.ts)
 * and the admin console at `./admin` (sections in the hash: `admin#/tokens`).
 */

/** The page path below the document base, without slashes at either end: `""` or `"admin"`. */
export function pathBelowBase(): string {
  const base = new URL(document.baseURI).pathname;
  const path = location.pathname.startsWith(base) ? location.pathname.slice(base.length) : location.pathname;
  return path.replace(/^\/+|\/+$/g, "");
}

export const isAdminPath = (path: string) => path === "admin" || path.startsWith("admin/");

/** The absolute URL of the public sign-up page with `params`. */
export function signUpUrl(params: Record<string, string | undefined> = {}): string {
  const url = new URL("./", document.baseURI);
  for (const [key, value] of Object.entries(params)) if (value) url.searchParams.set(key, value);
  return url.toString();
}

/** The admin console's address, relative to the base. */
export const adminHref = () => new URL("admin", document.baseURI).toString();

/** A server-given `/api/...` path (asset URLs) made relative, so it resolves against the base like every other URL. */
export const relativeApiPath = (path: string) => path.replace(/^\/+/, "");
