import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";

/**
 * Hash routing (`#/servers/abc?x=1`): the document URL never changes, so it works under any prefix and a reload
 * always hits the UI's own index page. Shared by the web UIs.
 */
export function currentHash(): { segments: string[]; query: URLSearchParams } {
  const hash = location.hash.replace(/^#/, "");
  const [path = "", search = ""] = (hash.startsWith("/") ? hash : "/").split("?");
  return { segments: path.split("/").filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(search) };
}

export function useHashRoute(): { segments: string[]; query: URLSearchParams } {
  const [route, setRoute] = useState(currentHash());
  useEffect(() => {
    const update = () => setRoute(currentHash());
    addEventListener("hashchange", update);
    return () => removeEventListener("hashchange", update);
  }, []);
  return route;
}

export function navigate(path: string): void {
  location.hash = path;
}

interface LinkProps {
  href: string;
  children: ComponentChildren;
  class?: string | undefined;
  "aria-label"?: string;
  "aria-current"?: "page" | undefined;
  "data-testid"?: string;
  onClick?: () => void;
}

/**
 * An in-app link: `href` is an app path (`/servers`), rendered as this document's own address plus the fragment, so it
 * never leaves the document. A bare `#/servers` would not do: it resolves against `<base href>`, which is not this
 * page's address when the app lives below the base (the portal's console at `admin` under a base of `/`).
 */
export function Link({ href, children, ...rest }: LinkProps) {
  return (
    <a {...rest} href={`${location.pathname}${location.search}#${href}`}>
      {children}
    </a>
  );
}
