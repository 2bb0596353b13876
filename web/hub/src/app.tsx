import type { ComponentChildren } from "preact";
import { AppShell, type NavItem } from "../../common/components/app-shell.tsx";
import { Link, useHashRoute } from "../../common/hash-router.tsx";
import { useStore } from "../../common/store.ts";
import { useAsync } from "../../common/use-async.ts";
import { live } from "./api/live.ts";
import { getHealth } from "./api/system.ts";
import { BackupPage } from "./pages/backup.tsx";
import { BridgeDetailPage } from "./pages/bridge-detail.tsx";
import { BridgeFormPage } from "./pages/bridge-form.tsx";
import { BridgesPage } from "./pages/bridges.tsx";
import { DashboardPage } from "./pages/dashboard.tsx";
import { DeviceInspectorPage } from "./pages/device-inspector.tsx";
import { EntitiesPage } from "./pages/entities.tsx";
import { HealthPage } from "./pages/health.tsx";
import { LocksPage } from "./pages/locks.tsx";
import { LogsPage } from "./pages/logs.tsx";
import { PluginsPage } from "./pages/plugins.tsx";
import { SettingsPage } from "./pages/settings.tsx";
import { S } from "./strings.ts";

const NAV: NavItem[] = [
  { path: "/", label: S.nav.dashboard, icon: "M3 13h8V3H3zm0 8h8v-6H3zm10 0h8V11h-8zm0-18v6h8V3z" },
  { path: "/bridges", label: S.nav.bridges, icon: "M4 6h16v4H4zm0 8h16v4H4zM7 7.5h2v1H7zm0 8h2v1H7z" },
  { path: "/entities", label: S.nav.entities, icon: "M4 5h16v2H4zm0 6h16v2H4zm0 6h10v2H4z" },
  {
    path: "/locks",
    label: S.nav.locks,
    icon: "M12 2a5 5 0 0 0-5 5v3H5v12h14V10h-2V7a5 5 0 0 0-5-5zm-3 8V7a3 3 0 0 1 6 0v3zm3 3a2 2 0 0 1 1 3.7V19h-2v-2.3A2 2 0 0 1 12 13z",
  },
  {
    path: "/plugins",
    label: S.nav.plugins,
    icon: "M20.5 11H19V7a2 2 0 0 0-2-2h-4V3.5a2.5 2.5 0 0 0-5 0V5H4a2 2 0 0 0-2 2v3.8h1.5a2.7 2.7 0 0 1 0 5.4H2V20a2 2 0 0 0 2 2h3.8v-1.5a2.7 2.7 0 0 1 5.4 0V22H17a2 2 0 0 0 2-2v-4h1.5a2.5 2.5 0 0 0 0-5z",
  },
  { path: "/backup", label: S.nav.backup, icon: "M5 20h14v-2H5zm7-18-6 6h4v6h4V8h4z" },
  { path: "/logs", label: S.nav.logs, icon: "M4 4h16v16H4zm2 2v12h12V6zm2 2h8v2H8zm0 4h8v2H8z" },
  { path: "/health", label: S.nav.health, icon: "M12 21 3.5 12.7A5 5 0 0 1 12 6a5 5 0 0 1 8.5 6.7zM7 12h2l1.5-3 3 6 1.5-3h2" },
  {
    path: "/settings",
    label: S.nav.settings,
    icon: "M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8zm9 5v-2l-2.2-.5-.6-1.5 1.2-1.9-1.4-1.4-1.9 1.2-1.5-.6L14 3h-2l-.5 2.2-1.5.6L8.1 4.6 6.7 6l1.2 1.9-.6 1.5L5 10v2l2.3.5.6 1.5-1.2 1.9 1.4 1.4 1.9-1.2 1.5.6.5 2.3h2l.5-2.3 1.5-.6 1.9 1.2 1.4-1.4-1.2-1.9.6-1.5z",
  },
];

function LiveIndicator() {
  const { mode } = useStore(live);
  const label = mode === "live" ? S.app.liveOn : mode === "polling" ? S.app.livePolling : S.app.liveConnecting;
  const title = mode === "live" ? S.app.liveOnTitle : mode === "polling" ? S.app.livePollingTitle : undefined;
  return (
    <span class={`live live-${mode}`} title={title} data-testid="live-mode" data-mode={mode}>
      <span class="dot" aria-hidden="true" />
      {label}
    </span>
  );
}

function page(route: string[]): { key: string; node: ComponentChildren } {
  const [section, id, sub, item] = route;
  switch (section) {
    case undefined:
      return { key: "dashboard", node: <DashboardPage /> };
    case "bridges":
      if (id === "new") return { key: "bridge-new", node: <BridgeFormPage /> };
      if (id && sub === "edit") return { key: `bridge-edit-${id}`, node: <BridgeFormPage bridgeId={id} /> };
      if (id && sub === "endpoints" && item && /^\d{1,5}$/.test(item))
        return { key: `inspect-${id}-${item}`, node: <DeviceInspectorPage bridgeId={id} endpointNumber={Number(item)} /> };
      if (id) return { key: `bridge-${id}`, node: <BridgeDetailPage bridgeId={id} /> };
      return { key: "bridges", node: <BridgesPage /> };
    case "entities":
      return { key: "entities", node: <EntitiesPage /> };
    case "locks":
      return { key: "locks", node: <LocksPage /> };
    case "plugins":
      return { key: "plugins", node: <PluginsPage /> };
    case "backup":
      return { key: "backup", node: <BackupPage /> };
    case "logs":
      return { key: "logs", node: <LogsPage /> };
    case "settings":
      return { key: "settings", node: <SettingsPage /> };
    case "health":
      return { key: "health", node: <HealthPage /> };
    default:
      return {
        key: "404",
        node: (
          <div class="empty">
            <p class="empty-title">{S.app.notFound}</p>
            <Link href="/">{S.app.backHome}</Link>
          </div>
        ),
      };
  }
}

export function App() {
  const { segments } = useHashRoute();
  const health = useAsync((signal) => getHealth(signal), []);
  const current = page(segments);
  return (
    <AppShell
      labels={S.app}
      brand={
        <>
          <svg class="logo" viewBox="0 0 24 24" aria-hidden="true">
            <path d="M12 2 3 7v10l9 5 9-5V7zm0 2.3 6.8 3.8L12 12 5.2 8.1zM5 9.8l6 3.4v6.6l-6-3.4zm8 10v-6.6l6-3.4v6.6z" />
          </svg>
          {S.app.title}
        </>
      }
      demo={health.data?.demo ? { label: S.app.demo, title: S.app.demoTitle } : undefined}
      actions={<LiveIndicator />}
      nav={NAV}
      section={`/${segments[0] ?? ""}`}
      pageKey={current.key}
    >
      {current.node}
    </AppShell>
  );
}
