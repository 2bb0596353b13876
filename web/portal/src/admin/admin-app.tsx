import { type ComponentChildren, render } from "preact";
import { useEffect } from "preact/hooks";
import { AppShell, type NavItem } from "../../../common/components/app-shell.tsx";
import { notify } from "../../../common/components/notify.tsx";
import { Link, useHashRoute } from "../../../common/hash-router.tsx";
import { useStore } from "../../../common/store.ts";
import { setUnreachableMessage } from "../api/client.ts";
import { signUpUrl } from "../lib/paths.ts";
import { A } from "../strings/admin.ts";
import "../styles/admin.css";
import { LanguageSelect } from "../public/language-select.tsx";
import { fetchSession, logout } from "./api.ts";
import { loadAdminLanguage } from "./i18n.ts";
import { LoginPage } from "./login.tsx";
import { AuditPage } from "./pages/audit.tsx";
import { BotDetailPage } from "./pages/bot-detail.tsx";
import { BotsPage } from "./pages/bots.tsx";
import { BrandingEditorPage } from "./pages/branding-editor.tsx";
import { BrandingListPage } from "./pages/branding-list.tsx";
import { DashboardPage } from "./pages/dashboard.tsx";
import { IntegrationDetailPage } from "./pages/integration-detail.tsx";
import { IntegrationsPage } from "./pages/integrations.tsx";
import { ServerDetailPage } from "./pages/server-detail.tsx";
import { ServerFormPage } from "./pages/server-form.tsx";
import { ServersPage } from "./pages/servers.tsx";
import { TokenInvitePage } from "./pages/token-invite.tsx";
import { TokenSheetPage } from "./pages/token-sheet.tsx";
import { TokensPage } from "./pages/tokens.tsx";
import { selectedServer } from "./selected-server.ts";
import { loadServers, servers } from "./servers-store.ts";
import { session } from "./session.ts";

/** The sections (built when rendered: the labels are read after the language has loaded). */
const nav = (): NavItem[] => [
  { path: "/", label: A.nav.dashboard, icon: "M3 13h8V3H3zm0 8h8v-6H3zm10 0h8V11h-8zm0-18v6h8V3z" },
  { path: "/servers", label: A.nav.servers, icon: "M4 4h16v6H4zm0 10h16v6H4zm3-8v2h2V6zm0 10v2h2v-2z" },
  { path: "/tokens", label: A.nav.tokens, icon: "M7 14a2 2 0 1 1 0-4 2 2 0 0 1 0 4zm5.6-4A6 6 0 1 0 12.6 14H16v3h3v-3h2v-4z" },
  {
    path: "/branding",
    label: A.nav.branding,
    icon: "M12 3a9 9 0 0 0 0 18c1 0 1.5-.7 1.5-1.5 0-.9-.7-1.3-.7-2.2 0-1 .8-1.8 1.8-1.8H17a4 4 0 0 0 4-4C21 6.6 17 3 12 3zM6.5 12a1.5 1.5 0 1 1 0-3 1.5 1.5 0 0 1 0 3zm3-4a1.5 1.5 0 1 1 0-3 1.5 1.5 0 0 1 0 3zm5 0a1.5 1.5 0 1 1 0-3 1.5 1.5 0 0 1 0 3zm3 4a1.5 1.5 0 1 1 0-3 1.5 1.5 0 0 1 0 3z",
  },
  {
    path: "/bots",
    label: A.nav.bots,
    icon: "M11 2h2v3h4a3 3 0 0 1 3 3v9a3 3 0 0 1-3 3H7a3 3 0 0 1-3-3V8a3 3 0 0 1 3-3h4zM9 10a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm6 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm-6 5v2h6v-2z",
  },
  {
    path: "/integrations",
    label: A.nav.integrations,
    icon: "M20.5 11H19V7a2 2 0 0 0-2-2h-4V3.5a2.5 2.5 0 0 0-5 0V5H4a2 2 0 0 0-2 2v3.8h1.5a2.7 2.7 0 0 1 0 5.4H2V20a2 2 0 0 0 2 2h3.8v-1.5a2.7 2.7 0 0 1 5.4 0V22H17a2 2 0 0 0 2-2v-4h1.5a2.5 2.5 0 0 0 0-5z",
  },
  { path: "/audit", label: A.nav.audit, icon: "M6 2h9l5 5v15H6zm8 1.5V8h4.5zM9 12v2h8v-2zm0 4v2h8v-2z" },
];

function page(segments: string[], query: URLSearchParams): { key: string; node: ComponentChildren } {
  const [section, id, sub] = segments;
  switch (section) {
    case undefined:
      return { key: "dashboard", node: <DashboardPage /> };
    case "servers":
      if (id === "new") return { key: "server-new", node: <ServerFormPage /> };
      if (id && sub === "edit") return { key: `server-edit-${id}`, node: <ServerFormPage serverId={id} /> };
      if (id) return { key: `server-${id}`, node: <ServerDetailPage serverId={id} /> };
      return { key: "servers", node: <ServersPage /> };
    case "tokens":
      if (id === "sheet" && sub === undefined) {
        const label = query.get("label") ?? "";
        return { key: `token-sheet-${label}`, node: <TokenSheetPage label={label} /> };
      }
      if (id && sub === "invite") return { key: `token-invite-${id}`, node: <TokenInvitePage token={id} /> };
      return { key: "tokens", node: <TokensPage /> };
    case "branding":
      if (id) return { key: `branding-${id}`, node: <BrandingEditorPage profileId={id} /> };
      return { key: "branding", node: <BrandingListPage /> };
    case "bots":
      if (id) return { key: `bot-${id}`, node: <BotDetailPage botId={id} /> };
      return { key: "bots", node: <BotsPage /> };
    case "integrations":
      if (id) return { key: `integration-${id}`, node: <IntegrationDetailPage integrationId={id} /> };
      return { key: `integrations-${query.get("tab") ?? ""}`, node: <IntegrationsPage tab={query.get("tab") ?? "installed"} /> };
    case "audit":
      return { key: "audit", node: <AuditPage /> };
    default:
      return {
        key: "404",
        node: (
          <div class="empty">
            <h1 id="page-title" tabIndex={-1} class="empty-title">
              {A.app.notFound}
            </h1>
            <Link href="/">{A.app.backHome}</Link>
          </div>
        ),
      };
  }
}

function ServerPicker() {
  const state = useStore(servers);
  const selected = useStore(selectedServer);
  if (!state.list || state.list.length === 0) return null;
  return (
    <label class="server-picker">
      <span>{A.app.server}</span>
      <select value={selected ?? ""} onChange={(e) => selectedServer.set(e.currentTarget.value)} data-testid="server-picker">
        {state.list.map((server) => (
          <option key={server.id} value={server.id}>
            {server.name}
            {server.isDefault ? ` (${A.servers.default})` : ""}
            {server.enabled ? "" : ` — ${A.servers.disabled}`}
          </option>
        ))}
      </select>
    </label>
  );
}

function Shell() {
  const { segments, query } = useHashRoute();
  const { user, demo } = useStore(session);
  const current = page(segments, query);
  useEffect(() => {
    void loadServers();
  }, []);

  const signOut = async () => {
    try {
      await logout();
      session.set((s) => ({ ...s, state: "out", user: null, expired: false }));
    } catch (error) {
      notify.error(error, A.app.logout);
    }
  };

  return (
    <AppShell
      labels={A.app}
      brand={
        <>
          <svg class="logo" viewBox="0 0 24 24" aria-hidden="true">
            <rect width="24" height="24" rx="6" />
            <path fill="#fff" d="M6 5h2v14H6zm10 0h2v14h-2zM9 9h6v2H9z" />
          </svg>
          <span class="brand-text">{A.app.title}</span>
        </>
      }
      demo={demo ? { label: A.app.demo, title: A.app.demoTitle } : undefined}
      actions={
        <>
          <ServerPicker />
          <LanguageSelect label={A.common.language} automatic={A.common.languageAutomatic} className="language-picker" />
          <a class="btn btn-small btn-plain topbar-link" href={signUpUrl()} target="_blank" rel="noopener">
            {A.app.openSignUp}
          </a>
          <span class="user" title={user?.email}>
            {user?.email}
          </span>
          <button type="button" class="btn btn-small" onClick={signOut}>
            {A.app.logout}
          </button>
        </>
      }
      nav={nav()}
      section={`/${segments[0] ?? ""}`}
      pageKey={current.key}
    >
      {current.node}
    </AppShell>
  );
}

export function AdminApp() {
  const state = useStore(session);
  useEffect(() => {
    document.title = A.app.documentTitle;
    fetchSession().then(
      (answer) =>
        session.set({
          state: answer.authenticated ? "in" : "out",
          user: answer.user ?? null,
          demo: answer.demo === true,
          expired: false,
        }),
      (error: Error) => {
        session.set((s) => ({ ...s, state: "out" }));
        notify.error(error, A.login.sessionCheck);
      },
    );
  }, []);
  if (state.state === "loading") {
    return (
      <p class="loading boot" role="status">
        <span class="spinner" aria-hidden="true" />
        {A.common.loading}
      </p>
    );
  }
  return state.state === "in" ? <Shell /> : <LoginPage />;
}

/** Entry point of the admin bundle (loaded on demand by main.tsx): the language first, then the console. */
export async function startAdmin(root: HTMLElement): Promise<void> {
  await loadAdminLanguage();
  setUnreachableMessage(A.app.unreachable);
  render(<AdminApp />, root);
}
