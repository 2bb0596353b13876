import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";

/**
 * Hash routing (`#/bridges/abc`): the document URL never changes, so it works under any ingress prefix and a reload
 * always hits the UI's own index page.
 */
export function currentPath(): string {
  const hash = location.hash.replace(/^#/, "");
  return hash.startsWith("/") ? hash : "/";
}

export function useRoute(): string[] {
  const [path, setPath] = useState(currentPath());
  useEffect(() => {
    const update = () => setPath(currentPath());
    addEventListener("hashchange", update);
    return () => removeEventListener("hashchange", update);
  }, []);
  return path.split("/").filter(Boolean).map(decodeURIComponent);
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
}

/** An in-app link: `href` is an app path (`/bridges`), rendered as a fragment so it never leaves the document. */
export function Link({ href, children, ...rest }: LinkProps) {
  return (
    <a {...rest} href={`#${href}`}>
      {children}
    </a>
  );
}
