import type { ServerConnection } from "../homeserver/connector.ts";
import type { ServerKind } from "../homeserver/token-backend.ts";
import type { MasConnection } from "../mas/mas-connector.ts";

/** The homeserver diagnostics record (spec: key `diagnostics`), plus when it was taken. */
export interface DiagnosticsResult {
  homeserverReachable: boolean;
  adminApiReachable: boolean;
  tokenEndpointsAvailable: boolean;
  registrationFlowAvailable: boolean;
  registrationEnabled: boolean;
  tokenRegistrationSupported: boolean;
  msc3861Detected: boolean;
  serverName: string;
  errors: string[];
  checkedAt: string;
  /** The kind the server is configured as (issue 23). */
  kind: ServerKind;
  /** The kind its discovery documents say fits: `mas` when the homeserver delegates authentication; null unreachable. */
  detectedKind: ServerKind | null;
  /** The OAuth 2.0 issuer the homeserver delegates to, if any. */
  authIssuer: string | null;
  /** Servers of kind `mas`: what the portal found at their MAS. */
  mas?: MasDiagnostics;
}

/** A managed server as diagnostics need it: its homeserver and, for kind `mas`, its MAS. */
export type DiagnosedServer = ServerConnection & { server_name: string; kind?: ServerKind } & Partial<MasConnection>;

/**
 * Why a server cannot be saved as it is (`ServersService.create`): no homeserver answers, or it does not take the admin
 * token. The codes are the 422 `errorCode`s of `POST /api/admin/servers` (docs/portal.md, "Check on save").
 */
export interface ConnectionFailure {
  code:
    | "HOMESERVER_UNREACHABLE"
    | "ADMIN_API_UNREACHABLE"
    | "ADMIN_TOKEN_REFUSED"
    | "SERVER_NAME_MISMATCH"
    | "MAS_UNREACHABLE"
    | "MAS_CLIENT_REFUSED"
    | "MAS_SCOPE_REFUSED"
    | "MAS_ADMIN_API_UNREACHABLE";
  message: string;
}

/** What the portal found at a MAS server's MAS (kind `mas`), beside the spec's diagnostics record. */
export interface MasDiagnostics {
  /** `<MAS URL>/.well-known/openid-configuration` answered with an issuer. */
  discovery: boolean;
  /** The issuer that document names. */
  issuer: string | null;
  /** The client credentials grant with `urn:mas:admin` gave a token. */
  tokenGrant: boolean;
  /** The user registration token admin API answered. */
  adminApi: boolean;
  /** `GET /api/admin/v1/version`, when MAS answered it. */
  version: string | null;
  /** Site config: the Matrix server name MAS serves. */
  serverName: string | null;
  /** Site config: password registration on, and registration tokens required for it. */
  passwordRegistration: boolean | null;
  tokenRequired: boolean | null;
}
