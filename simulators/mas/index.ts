/**
 * A simulated Matrix Authentication Service (MAS, MSC3861): a real HTTP server with in-memory state that answers the
 * OAuth 2.0 client-credentials grant, the admin API's user registration tokens (list with filters and cursor
 * paging, create, show, update, revoke, unrevoke) and a minimal registration page that uses tokens, the way MAS
 * v1.22 does, quirks included (400 vs 401 auth failures, 409 on a duplicate token, ULID ids, 400 on revoking twice,
 * 300 s access tokens without refresh tokens). The portal's tests and demo mode use it beside the homeserver
 * simulator in delegated-auth mode.
 *
 * What it copies, where MAS defines it, and what it leaves out: docs/mas-simulator.md.
 *
 * @example
 * const mas = await startMasSimulator({ serverName: "demo.local" });
 * const grant = await fetch(`${mas.url}/oauth2/token`, {
 *   method: "POST",
 *   headers: { authorization: `Basic ${btoa(`${mas.client.clientId}:${mas.client.clientSecret}`)}` },
 *   body: new URLSearchParams({ grant_type: "client_credentials", scope: "urn:mas:admin" }),
 * });
 * await mas.close();
 */

export type { AccessTokenRecord } from "./access-tokens.ts";
export type { MasRequestLogEntry, MasUser } from "./context.ts";
export type { ClientAuthMethod, MasSimulatorOptions, SeedRegistrationToken, SimulatedClient } from "./options.ts";
export type { RegistrationTokenRow } from "./registration-tokens.ts";
export { type MasSimulator, startMasSimulator } from "./server.ts";
export { MAS_SIMULATOR_VERSION } from "./server-info.ts";
