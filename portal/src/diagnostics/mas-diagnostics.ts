import { HttpError } from "../../../lib/http-error.ts";
import type { HomeserverConnector } from "../homeserver/connector.ts";
import { type HomeserverResponse, HomeserverUnreachable } from "../homeserver/homeserver-client.ts";
import type { MasConnection } from "../mas/mas-connector.ts";
import { masTitles } from "../mas/mas-errors.ts";
import type { DiagnosedServer, DiagnosticsResult, MasDiagnostics } from "./diagnostics-result.ts";
import { type Probe, probeOutcome } from "./diagnostics-rules.ts";

/** Each MAS probe has this long (as each homeserver probe). */
const PROBE_TIMEOUT_MS = 5_000;

/** What the discovery documents of a homeserver say about who authenticates its users. */
export interface AuthDiscovery {
  /** The OAuth 2.0 issuer the homeserver delegates to (MSC3861/MSC2965), null when it authenticates itself. */
  issuer: string | null;
  /** Where that was read: `auth_metadata`, `auth_metadata (unstable)` or `well-known`. */
  source: string | null;
}

/**
 * The issuer of a delegating homeserver, from `/_matrix/client/v1/auth_metadata`, the unstable MSC2965 path, or the
 * client well-known's `m.authentication` / `org.matrix.msc2965.authentication` (MSC2965 treats the well-known as
 * superseded, so it is read last).
 */
export function discoverAuth(stable: Probe, unstable: Probe, wellKnown: Probe): AuthDiscovery {
  const issuerOf = (probe: Probe) =>
    probeOutcome(probe, (r) => r.status === 200 && typeof r.body.issuer === "string")
      ? String((probe as HomeserverResponse).body.issuer)
      : null;
  const fromStable = issuerOf(stable);
  if (fromStable) return { issuer: fromStable, source: "auth_metadata" };
  const fromUnstable = issuerOf(unstable);
  if (fromUnstable) return { issuer: fromUnstable, source: "auth_metadata (unstable)" };
  if (!("unreachable" in wellKnown) && wellKnown.status === 200) {
    for (const key of ["m.authentication", "org.matrix.msc2965.authentication"]) {
      const issuer = (wellKnown.body[key] as { issuer?: unknown } | undefined)?.issuer;
      if (typeof issuer === "string" && issuer !== "") return { issuer, source: "well-known" };
    }
  }
  return { issuer: null, source: null };
}

/** Why a MAS check failed, when it did: an HttpError code of mas-errors.ts or `MAS_ADMIN_API_UNREACHABLE`. */
export interface MasFindings {
  mas: MasDiagnostics;
  errors: string[];
  failure?: { code: string; message: string } | undefined;
}

/**
 * Probes a MAS server's MAS: its discovery document, the client credentials grant (the portal's cached token, granted
 * anew if needed), the registration-token admin API, the version and the site config.
 */
export async function probeMas(connector: HomeserverConnector, server: MasConnection, timeoutMs: number): Promise<MasFindings> {
  const mas: MasDiagnostics = {
    discovery: false,
    issuer: null,
    tokenGrant: false,
    adminApi: false,
    version: null,
    serverName: null,
    passwordRegistration: null,
    tokenRequired: null,
  };
  const errors: string[] = [];
  try {
    const document = await connector.mas
      .httpClient(server.mas_url ?? "", undefined, timeoutMs)
      .call("GET", "/.well-known/openid-configuration");
    if (document.status === 200 && typeof document.body.issuer === "string") {
      mas.discovery = true;
      mas.issuer = document.body.issuer;
    }
  } catch {
    // Unreachable: the grant below says so in the portal's words.
  }
  let client: ReturnType<typeof connector.mas.client>;
  let tokens: HomeserverResponse;
  try {
    client = connector.mas.client(server, timeoutMs);
    tokens = await client.call("GET", "/api/admin/v1/user-registration-tokens", { query: { "page[first]": "1" } });
  } catch (error) {
    if (!(error instanceof HttpError)) {
      if (!(error instanceof HomeserverUnreachable)) throw error;
      const message = "No Matrix Authentication Service answered at the MAS URL (the cause is in the portal log)";
      return { mas, errors: [message], failure: { code: "MAS_UNREACHABLE", message } };
    }
    return { mas, errors: [error.message], failure: { code: error.code, message: error.message } };
  }
  mas.tokenGrant = true;
  if (tokens.status !== 200 || !Array.isArray(tokens.body.data)) {
    const detail = masTitles(tokens)?.[0] ?? `HTTP ${tokens.status}`;
    const message =
      tokens.status === 404 && !tokens.json
        ? "MAS gave the portal a token, but its admin API is not served: add the adminapi resource to a MAS listener the portal reaches"
        : `MAS's user registration token admin API refused the portal (${detail})`;
    errors.push(message);
    return { mas, errors, failure: { code: "MAS_ADMIN_API_UNREACHABLE", message } };
  }
  mas.adminApi = true;
  const [version, siteConfig] = await Promise.all([
    client.call("GET", "/api/admin/v1/version").catch(() => undefined),
    client.call("GET", "/api/admin/v1/site-config").catch(() => undefined),
  ]);
  if (version?.status === 200 && typeof version.body.version === "string") mas.version = version.body.version;
  if (siteConfig?.status === 200) {
    const { password_registration_enabled: enabled, password_registration_token_required: required } = siteConfig.body;
    if (typeof siteConfig.body.server_name === "string") mas.serverName = siteConfig.body.server_name;
    mas.passwordRegistration = typeof enabled === "boolean" ? enabled : null;
    const legacy = siteConfig.body.registration_token_required;
    mas.tokenRequired = typeof required === "boolean" ? required || legacy === true : typeof legacy === "boolean" ? legacy : null;
    if (mas.passwordRegistration === false) {
      errors.push("Password registration is off in MAS (account.password_registration_enabled): nobody can sign up with a token");
    } else if (mas.tokenRequired === false) {
      errors.push(
        "MAS does not require a registration token (account.password_registration_token_required is off): anyone can sign up there directly",
      );
    }
  }
  return { mas, errors };
}

const trimSlash = (url: string) => url.replace(/\/+$/, "");

/**
 * The diagnostics of a server of kind `mas` once its homeserver answered: its MAS is probed ({@link probeMas}) and the
 * spec's record is filled from MAS's side (the admin API is MAS's; registration is MAS's password registration with
 * tokens required). `masFailure` is why a check on save fails.
 */
export async function masFindings(
  connector: HomeserverConnector,
  server: DiagnosedServer,
  auth: AuthDiscovery,
  register: Probe,
  now: number,
): Promise<{ result: DiagnosticsResult; masFailure?: { code: string; message: string } | undefined }> {
  const found = await probeMas(
    connector,
    {
      id: server.id,
      mas_url: server.mas_url ?? null,
      mas_client_id: server.mas_client_id ?? null,
      mas_client_secret_enc: server.mas_client_secret_enc ?? null,
    },
    PROBE_TIMEOUT_MS,
  );
  const errors: string[] = [];
  if (auth.issuer === null) {
    errors.push(
      "The homeserver does not delegate authentication (no auth_metadata and no issuer in its client well-known): it creates accounts itself, so kind synapse fits it",
    );
  } else if (found.mas.issuer !== null && trimSlash(found.mas.issuer) !== trimSlash(auth.issuer)) {
    errors.push(`The homeserver delegates to ${auth.issuer}, but the MAS at this server's MAS URL is ${found.mas.issuer}`);
  }
  if (!("unreachable" in register) && register.status === 401) {
    errors.push("The homeserver still offers its own /register flow: is MAS (matrix_authentication_service) enabled in Synapse?");
  }
  errors.push(...found.errors);
  if (found.mas.serverName !== null && found.mas.serverName !== server.server_name) {
    errors.push(`MAS serves ${found.mas.serverName}, but this server is configured as ${server.server_name}`);
  }
  const registration = found.mas.passwordRegistration === true;
  const result: DiagnosticsResult = {
    homeserverReachable: true,
    adminApiReachable: found.mas.adminApi,
    tokenEndpointsAvailable: found.mas.adminApi,
    registrationFlowAvailable: registration,
    registrationEnabled: registration,
    tokenRegistrationSupported: registration && found.mas.tokenRequired === true,
    msc3861Detected: auth.issuer !== null,
    serverName: found.mas.serverName ?? server.server_name,
    errors,
    checkedAt: new Date(now).toISOString(),
    kind: "mas",
    detectedKind: auth.issuer !== null ? "mas" : "synapse",
    authIssuer: auth.issuer,
    mas: found.mas,
  };
  return { result, masFailure: found.failure };
}
