import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { Link } from "../hash-router.tsx";
import { UI } from "../strings.ts";
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

const MENU_ICON = "M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z";

/**
 * The frame both web UIs share: a skip link, the top bar (`brand`, a demo badge, then `actions` at the right), the
 * section navigation, the page, and the toasts and confirmation dialog. On a wide screen the navigation is a side
 * bar; on a phone (narrow.css) it is folded behind a Menu button in the top bar that opens the full list of
 * sections (a disclosure: aria-expanded, focus moves to the current section, Escape closes and returns focus to the
 * button, choosing a section closes it), so no section hides off-screen.
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
  const navRef = useRef<HTMLElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const first = useRef(true);
  const [menuOpen, setMenuOpen] = useState(false);
  // Choosing a section (or any other page change) folds the phone menu away again.
  useEffect(() => setMenuOpen(false), [pageKey]);
  const openMenu = () => {
    setMenuOpen(true);
    // Rendered open on the next frame: then the current section (or the first) takes focus.
    requestAnimationFrame(() =>
      (navRef.current?.querySelector<HTMLElement>("a.active") ?? navRef.current?.querySelector<HTMLElement>("a"))?.focus(),
    );
  };
  const closeMenu = (returnFocus: boolean) => {
    setMenuOpen(false);
    if (returnFocus) toggleRef.current?.focus();
  };
  const onMenuKey = (event: KeyboardEvent) => {
    if (event.key === "Escape" && menuOpen) {
      event.preventDefault();
      closeMenu(true);
    }
  };
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
        <button
          type="button"
          class="nav-toggle"
          ref={toggleRef}
          aria-expanded={menuOpen}
          aria-controls="app-nav"
          onClick={() => (menuOpen ? closeMenu(false) : openMenu())}
          onKeyDown={onMenuKey}
          data-testid="nav-toggle"
        >
          <Icon d={MENU_ICON} />
          <span>{UI.menu}</span>
        </button>
        <span class="brand">{brand}</span>
        {demo ? (
          <span class="demo-badge" data-testid="demo-badge" title={demo.title}>
            {demo.label}
          </span>
        ) : null}
        <span class="spacer" />
        {actions}
      </header>
      <nav id="app-nav" ref={navRef} class={menuOpen ? "nav open" : "nav"} aria-label={labels.nav} onKeyDown={onMenuKey}>
        <ul>
          {nav.map((item) => {
            const active = item.path === section;
            return (
              <li key={item.path}>
                <Link
                  href={item.path}
                  aria-current={active ? "page" : undefined}
                  class={active ? "active" : undefined}
                  onClick={() => setMenuOpen(false)}
                >
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
