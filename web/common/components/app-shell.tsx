import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { Link } from "../hash-router.tsx";
import { ConfirmHost, Toasts } from "./notify.tsx";

/** One entry of the side navigation: an app path, its label, and a 24×24 SVG path drawn as its icon. */
export interface NavItem {
  path: string;
  label: string;
  icon: string;
}

function Icon({ d }: { d: string }) {
  return (
    <svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={d} />
    </svg>
  );
}

/**
 * The frame both web UIs share: a skip link, the top bar (`brand`, a demo badge, then `actions` at the right), the
 * section navigation (a side bar, a scrolling strip on a phone), the page, and the toasts and confirmation dialog.
 * `section` is the current top-level path (`/bridges`); `pageKey` identifies the page, and changing it moves focus to
 * the new page's heading so screen readers announce it.
 */
export function AppShell({
  labels,
  brand,
  demo,
  actions,
  nav,
  section,
  pageKey,
  children,
}: {
  labels: { skip: string; nav: string };
  brand: ComponentChildren;
  demo?: { label: string; title: string } | undefined;
  actions?: ComponentChildren;
  nav: NavItem[];
  section: string;
  pageKey: string;
  children: ComponentChildren;
}) {
  const mainRef = useRef<HTMLElement>(null);
  const first = useRef(true);
  // On a phone the nav is a scrolling strip: keep the current section in sight.
  useEffect(() => {
    document.querySelector<HTMLElement>(".nav a.active")?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [section]);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    mainRef.current?.querySelector<HTMLElement>("h1")?.focus({ preventScroll: false });
    window.scrollTo(0, 0);
  }, [pageKey]);

  return (
    <div class="shell">
      <button type="button" class="skip" onClick={() => mainRef.current?.focus()}>
        {labels.skip}
      </button>
      <header class="topbar">
        <span class="brand">{brand}</span>
        {demo ? (
          <span class="demo-badge" data-testid="demo-badge" title={demo.title}>
            {demo.label}
          </span>
        ) : null}
        <span class="spacer" />
        {actions}
      </header>
      <nav class="nav" aria-label={labels.nav}>
        <ul>
          {nav.map((item) => {
            const active = item.path === section;
            return (
              <li key={item.path}>
                <Link href={item.path} aria-current={active ? "page" : undefined} class={active ? "active" : undefined}>
                  <Icon d={item.icon} />
                  <span>{item.label}</span>
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <main id="main" ref={mainRef} tabIndex={-1} class="content">
        <div key={pageKey}>{children}</div>
      </main>
      <Toasts />
      <ConfirmHost />
    </div>
  );
}
