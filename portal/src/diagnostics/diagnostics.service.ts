import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "../../../lib/logger.ts";
import type { HomeserverConnector } from "../homeserver/connector.ts";
import {
  errcodeOf,
  type HomeserverClient,
  type HomeserverResponse,
  HomeserverUnreachable,
} from "../homeserver/homeserver-client.ts";
import { deniedMessage } from "../homeserver/homeserver-errors.ts";
import type { ServerKind } from "../homeserver/token-backend.ts";
import type { ConnectionFailure, DiagnosedServer, DiagnosticsResult } from "./diagnostics-result.ts";
import { explainFlows, type Probe, probeOutcome } from "./diagnostics-rules.ts";
import { discoverAuth, masFindings } from "./mas-diagnostics.ts";

export type { ConnectionFailure, DiagnosedServer, DiagnosticsResult, MasDiagnostics } from "./diagnostics-result.ts";

/** The MAS refusals a check on save reports as themselves; any other (unreachable, denied) is MAS_UNREACHABLE. */
const MAS_FAILURES = new Set<string>(["MAS_CLIENT_REFUSED", "MAS_SCOPE_REFUSED", "MAS_ADMIN_API_UNREACHABLE"]);

/** What the probes found beyond the spec's record: the facts a connection check needs to say which step failed. */
interface Findings {
  result: DiagnosticsResult;
  /** The admin API answers but refused the token: its errcode (or HTTP status). */
  tokenRefusal?: string | undefined;
  /** The Matrix API answers but `/_synapse/admin` does not. */
  adminApiMissing?: boolean | undefined;
  /** The token's owner, when it is of another server than the configured name. */
  foreignOwner?: string | undefined;
  /** Kind `mas`: why the MAS check failed (an HttpError code of mas-errors.ts). */
  masFailure?: { code: string; message: string } | undefined;
}

/** Each probe has this long; the probes run in parallel. */
const PROBE_TIMEOUT_MS = 5_000;

async function probe(call: () => Promise<HomeserverResponse>): Promise<Probe> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof HomeserverUnreachable)
      return { unreachable: error.message, ...(error.kind === "denied" ? { denied: error } : {}) };
    throw error;
  }
}

/** The cause of a probe's failure in a few words, for the log only. */
const causeOf = (result: Probe) => ("unreachable" in result ? result.unreachable : `HTTP ${result.status}`);

/**
 * Checks a managed server against the real homeserver endpoints (docs/portal.md lists each probe):
 * `/_matrix/client/versions`, the admin API's `server_version` and an authenticated admin call, whoami, the
 * registration-token admin API, a bare `POST /register` (opens an empty UIA session and consumes nothing), and
 * the MSC3861 `auth_metadata` discovery.
 *
 * Details are given only once the internal URL has answered like a Matrix homeserver: before that, refused,
 * timed out, DNS, TLS and "something else answers there" are one sentence after the same time (the probe time
 * limit), so diagnostics cannot map another host's ports. The cause goes to the portal log.
 */
export class DiagnosticsService {
  constructor(
    private readonly connector: HomeserverConnector,
    private readonly now: () => number,
    private readonly log: Logger,
  ) {}

  async run(server: DiagnosedServer): Promise<DiagnosticsResult> {
    return (await this.probeAll(server)).result;
  }

  /**
   * The same diagnostics, judged as a check before a server is saved: a failure when no Matrix homeserver answers,
   * its admin API is not reachable, it refuses the admin token, or the token belongs to a user of another server
   * name. Other findings (registration off, MAS, no token flow) do not stop a save; they are in `result`.
   */
  async checkConnection(server: DiagnosedServer): Promise<{ result: DiagnosticsResult; failure?: ConnectionFailure }> {
    const found = await this.probeAll(server);
    const { result } = found;
    const fail = (code: ConnectionFailure["code"], message: string) => ({ result, failure: { code, message } });
    if (!result.homeserverReachable) return fail("HOMESERVER_UNREACHABLE", result.errors[0] ?? "No Matrix homeserver answered");
    if (result.kind === "mas") {
      // The MAS check on save: the grant works and the admin API answers (issue 23).
      const masFailure = found.masFailure;
      if (masFailure) {
        const code = MAS_FAILURES.has(masFailure.code) ? masFailure.code : "MAS_UNREACHABLE";
        return fail(code as ConnectionFailure["code"], masFailure.message);
      }
      if (result.mas?.serverName && result.mas.serverName !== server.server_name) {
        return fail(
          "SERVER_NAME_MISMATCH",
          `MAS serves ${result.mas.serverName}, but the server name given is ${server.server_name}: correct the server name`,
        );
      }
      return { result };
    }
    if (found.adminApiMissing) {
      return fail(
        "ADMIN_API_UNREACHABLE",
        "A Matrix homeserver answers, but its Synapse admin API (/_synapse/admin) is not reachable from the portal: check the reverse proxy",
      );
    }
    if (found.tokenRefusal !== undefined) {
      return fail(
        "ADMIN_TOKEN_REFUSED",
        `The homeserver refused the admin token (${found.tokenRefusal}): give the access token of a server administrator`,
      );
    }
    if (!result.adminApiReachable) {
      return fail("ADMIN_API_UNREACHABLE", "The homeserver's admin API did not answer the token check; try again");
    }
    if (found.foreignOwner !== undefined) {
      return fail(
        "SERVER_NAME_MISMATCH",
        `The admin token belongs to ${found.foreignOwner}, but the server name given is ${server.server_name}: correct the server name`,
      );
    }
    return { result };
  }

  private async probeAll(server: DiagnosedServer): Promise<Findings> {
    const started = performance.now();
    const kind: ServerKind = server.kind ?? "synapse";
    // A MAS server's homeserver is probed without its admin API: MAS, not Synapse, holds the tokens.
    const hs: HomeserverClient =
      kind === "mas" ? this.connector.publicClient(server, PROBE_TIMEOUT_MS) : this.connector.client(server, PROBE_TIMEOUT_MS);
    const admin = (call: () => Promise<HomeserverResponse>) =>
      kind === "mas" ? Promise.resolve<Probe>({ unreachable: "not probed" }) : probe(call);
    const probeName = `portal-diagnostics-${randomBytes(4).toString("hex")}`;
    const [versions, serverVersion, adminCheck, whoami, tokens, register, authMetadata, authMetadataUnstable, wellKnown] =
      await Promise.all([
        probe(() => hs.call("GET", "/_matrix/client/versions")),
        admin(() => hs.call("GET", "/_synapse/admin/v1/server_version")),
        admin(() => hs.call("GET", "/_synapse/admin/v1/username_available", { admin: true, query: { username: probeName } })),
        admin(() => hs.call("GET", "/_matrix/client/v3/account/whoami", { admin: true })),
        admin(() => hs.call("GET", "/_synapse/admin/v1/registration_tokens", { admin: true, query: { valid: "true" } })),
        probe(() => hs.call("POST", "/_matrix/client/v3/register", { body: {} })),
        probe(() => hs.call("GET", "/_matrix/client/v1/auth_metadata")),
        probe(() => hs.call("GET", "/_matrix/client/unstable/org.matrix.msc2965/auth_metadata")),
        probe(() => hs.call("GET", "/.well-known/matrix/client")),
      ]);
    const errors: string[] = [];

    const homeserverReachable = probeOutcome(versions, (r) => r.status === 200 && Array.isArray(r.body.versions));
    if (!homeserverReachable) {
      if ("denied" in versions && versions.denied) return { result: this.failed(server, kind, [deniedMessage(versions.denied)]) };
      this.log.warn(
        { serverId: server.id, internalUrl: server.internal_url, versions: causeOf(versions), register: causeOf(register) },
        "diagnostics: no Matrix homeserver answered at the internal URL",
      );
      await sleep(Math.max(0, started + PROBE_TIMEOUT_MS - performance.now()));
      return {
        result: this.failed(server, kind, [
          `Could not reach a Matrix homeserver at ${server.internal_url}: check the URL, the network and that the homeserver runs (the cause is in the portal log)`,
        ]),
      };
    }

    const auth = discoverAuth(authMetadata, authMetadataUnstable, wellKnown);
    if (kind === "mas") return masFindings(this.connector, server, auth, register, this.now());

    const versionOk = probeOutcome(serverVersion, (r) => r.status === 200 && typeof r.body.server_version === "string");
    const tokenAccepted = probeOutcome(adminCheck, (r) => r.status === 200 || (r.status === 400 && errcodeOf(r) !== undefined));
    const adminApiReachable = versionOk && tokenAccepted;
    let tokenRefusal: string | undefined;
    if (homeserverReachable && !versionOk) {
      errors.push("The Synapse admin API (/_synapse/admin) is not reachable from the portal: check the reverse proxy");
    } else if (versionOk && !tokenAccepted && !("unreachable" in adminCheck)) {
      tokenRefusal = errcodeOf(adminCheck) ?? `HTTP ${adminCheck.status}`;
      errors.push(`The homeserver refused the stored admin token (${tokenRefusal}); rotate it`);
    }

    const tokenEndpointsAvailable = probeOutcome(tokens, (r) => r.status === 200 && Array.isArray(r.body.registration_tokens));
    if (adminApiReachable && !tokenEndpointsAvailable && !("unreachable" in tokens)) {
      errors.push(`The registration-token admin API is not available (${errcodeOf(tokens) ?? `HTTP ${tokens.status}`})`);
    }

    const msc3861Detected = auth.issuer !== null;
    if (msc3861Detected) {
      errors.push(
        `The homeserver delegates authentication to ${auth.issuer} (MSC3861, Matrix Authentication Service; found in ${auth.source}): Synapse's token API is off and MAS creates the accounts. Make this a server of kind mas, with that MAS's URL and an OAuth client allowed the urn:mas:admin scope`,
      );
    }

    const flows = explainFlows(register);
    errors.push(...flows.errors);

    let serverName = server.server_name;
    let foreignOwner: string | undefined;
    const userId = !("unreachable" in whoami) && whoami.status === 200 ? whoami.body.user_id : undefined;
    if (typeof userId === "string" && userId.includes(":")) {
      serverName = userId.slice(userId.indexOf(":") + 1);
      if (serverName !== server.server_name) {
        foreignOwner = userId;
        errors.push(`The admin token belongs to ${userId}, but this server is configured as ${server.server_name}`);
      }
    }

    const result: DiagnosticsResult = {
      homeserverReachable,
      adminApiReachable,
      tokenEndpointsAvailable,
      registrationFlowAvailable: flows.flowAvailable,
      registrationEnabled: flows.registrationEnabled,
      tokenRegistrationSupported: flows.tokenRegistrationSupported,
      msc3861Detected,
      serverName,
      errors,
      checkedAt: new Date(this.now()).toISOString(),
      kind,
      detectedKind: msc3861Detected ? "mas" : "synapse",
      authIssuer: auth.issuer,
    };
    return { result, tokenRefusal, adminApiMissing: !versionOk, foreignOwner };
  }

  /** Every check false: nothing answered like a Matrix homeserver, so no other answer is worth reporting. */
  private failed(server: { server_name: string }, kind: ServerKind, errors: string[]): DiagnosticsResult {
    return {
      homeserverReachable: false,
      adminApiReachable: false,
      tokenEndpointsAvailable: false,
      registrationFlowAvailable: false,
      registrationEnabled: false,
      tokenRegistrationSupported: false,
      msc3861Detected: false,
      serverName: server.server_name,
      errors,
      checkedAt: new Date(this.now()).toISOString(),
      kind,
      detectedKind: null,
      authIssuer: null,
    };
  }

  /** Stored as `lastDiagOk`: every check passed and nothing was reported (for kind `mas`, MSC3861 is expected). */
  isHealthy(result: DiagnosticsResult): boolean {
    if (result.kind === "mas") {
      return (
        result.homeserverReachable &&
        result.adminApiReachable &&
        result.tokenRegistrationSupported &&
        result.msc3861Detected &&
        result.errors.length === 0
      );
    }
    return (
      result.homeserverReachable &&
      result.adminApiReachable &&
      result.tokenEndpointsAvailable &&
      result.registrationFlowAvailable &&
      result.registrationEnabled &&
      result.tokenRegistrationSupported &&
      !result.msc3861Detected &&
      result.errors.length === 0
    );
  }
}
