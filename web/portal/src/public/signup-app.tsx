import { useEffect, useRef, useState } from "preact/hooks";
import { BRANDING_DEFAULTS } from "../../../../portal/src/contract.ts";
import { useAsync } from "../../../common/use-async.ts";
import { ApiError } from "../api/client.ts";
import { getBranding, getSession, resolveServer, type ServerSelector } from "../api/public.ts";
import type { PublicBranding, PublicServer } from "../api/public-types.ts";
import { tokenOf } from "../lib/invite-link.ts";
import { P } from "../strings/public.ts";
import { brandingText } from "./branding-text.ts";
import { assetSrc, SignupLayout } from "./layout.tsx";
import { MasSignup } from "./mas-signup.tsx";
import { SignupForm } from "./signup-form.tsx";
import { SignupSuccess } from "./success.tsx";

/**
 * The built-in branding shown while the real one loads or when it cannot be loaded: the portal's own defaults
 * (`BRANDING_DEFAULTS`), so the page looks the same before and after loading an unbranded portal.
 */
export const DEFAULT_BRANDING: PublicBranding = {
  ...BRANDING_DEFAULTS,
  profileId: null,
  version: 0,
  publishedAt: null,
  logoUrl: null,
  faviconUrl: null,
  heroUrl: null,
  backgroundUrl: null,
};

interface Loaded {
  server: PublicServer | null;
  /** Why there is no server: 404 (none set up / unknown slug) or 403 (disabled). */
  serverError: ApiError | null;
  branding: PublicBranding;
  demo: boolean;
}

/**
 * Which server the page is for, with its branding, in as few round trips as possible: `?server=<slug>` decides when
 * given (an unknown slug is an error, never another server); otherwise the page's domain is tried and, when no
 * server claims it, the default server. Server, branding and session (for the DEMO badge) load in parallel; the
 * branding is fetched again only when the fallback server links a profile of its own.
 */
async function load(signal: AbortSignal): Promise<Loaded> {
  const params = new URLSearchParams(location.search);
  const slug = params.get("server")?.trim();
  const selector: ServerSelector = slug ? { slug } : { domain: location.hostname };
  const [serverResult, brandingResult, session] = await Promise.all([
    resolveServer(selector, signal).then(
      (server) => ({ server, error: null }),
      (error: unknown) => ({ server: null, error }),
    ),
    getBranding(selector, signal),
    getSession(signal).catch(() => ({ authenticated: false, demo: false })),
  ]);
  let { server, error } = serverResult;
  let branding = brandingResult;
  if (!server && !slug && error instanceof ApiError && error.status === 404) {
    ({ server, error } = await resolveServer({}, signal).then(
      (found) => ({ server: found, error: null }),
      (failure: unknown) => ({ server: null, error: failure }),
    ));
    if (server?.brandingProfileId && server.brandingProfileId !== branding.profileId) {
      branding = await getBranding({ serverId: server.id }, signal);
    }
  }
  if (error && !(error instanceof ApiError && (error.status === 404 || error.status === 403))) throw error;
  return { server, serverError: (error as ApiError | null) ?? null, branding, demo: session.demo === true };
}

/** Title and favicon of the tab follow the branding. */
function useDocumentBranding(branding: PublicBranding | undefined): void {
  useEffect(() => {
    if (!branding) return;
    // <html lang> is the page's language (set when it loaded); a custom title keeps its own in the branded frame.
    document.title = brandingText(branding, "appTitle").text;
    const favicon = assetSrc(branding.faviconUrl);
    if (favicon) {
      let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
      if (!link) {
        link = document.createElement("link");
        link.rel = "icon";
        document.head.append(link);
      }
      link.href = favicon;
    }
  }, [branding]);
}

/**
 * Another invite link opened in the same tab changes only the fragment, which browsers do without loading the page:
 * the page then starts over with the new invitation.
 */
function useInviteChanges(current: string, changed: (token: string) => void): void {
  const latest = useRef({ current, changed });
  latest.current = { current, changed };
  useEffect(() => {
    const onHash = () => {
      const token = tokenOf(location);
      if (token !== latest.current.current) latest.current.changed(token);
    };
    addEventListener("hashchange", onHash);
    return () => removeEventListener("hashchange", onHash);
  }, []);
}

export function SignupApp() {
  const state = useAsync(load, []);
  const [userId, setUserId] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  useDocumentBranding(state.data?.branding);
  // The invitation the page was opened with (`#token=`, or `?token=` of older links).
  const [initialToken, setInitialToken] = useState(() => tokenOf(location));
  useInviteChanges(initialToken, (token) => {
    setInitialToken(token);
    setUserId(null);
    setFormKey((key) => key + 1);
  });

  if (state.loading && !state.data) {
    return (
      <SignupLayout branding={DEFAULT_BRANDING} intro={false}>
        <p class="su-loading" role="status">
          <span class="su-spinner" aria-hidden="true" />
          {P.loading}
        </p>
      </SignupLayout>
    );
  }
  if (state.error || !state.data) {
    return (
      <SignupLayout branding={DEFAULT_BRANDING} intro={false}>
        <div class="su-message" role="alert" data-testid="load-error">
          <h1>{P.loadFailed}</h1>
          <p>{state.error?.message}</p>
          <button type="button" class="su-submit" onClick={() => state.reload()}>
            {P.retry}
          </button>
        </div>
      </SignupLayout>
    );
  }
  const { server, serverError, branding, demo } = state.data;
  if (!server) {
    const closed = serverError?.status === 403;
    return (
      <SignupLayout branding={branding} demo={demo} intro={false}>
        <div class="su-message" data-testid="no-server">
          <h1>{closed ? P.serverClosed : P.noServer}</h1>
          <p>{closed ? P.serverClosedText : P.noServerText}</p>
        </div>
      </SignupLayout>
    );
  }
  if (server.kind === "mas") {
    // MAS creates the accounts: the page checks the token and hands the person over (issue 23).
    return (
      <SignupLayout branding={branding} demo={demo}>
        <MasSignup key={initialToken} server={server} initialToken={initialToken} />
      </SignupLayout>
    );
  }
  if (userId) {
    return (
      <SignupLayout branding={branding} demo={demo} intro={false}>
        <SignupSuccess
          userId={userId}
          server={server}
          branding={branding}
          onAnother={() => {
            setUserId(null);
            setFormKey((key) => key + 1);
          }}
        />
      </SignupLayout>
    );
  }
  return (
    <SignupLayout branding={branding} demo={demo}>
      <SignupForm key={formKey} server={server} branding={branding} initialToken={initialToken} onSuccess={setUserId} />
    </SignupLayout>
  );
}
