/**
 * A simulated Synapse homeserver: a real HTTP server (Hono on @hono/node-server) with in-memory state that answers
 * the registration-token admin API, the interactive-auth `/register` flow, username and token checks, whoami and the
 * discovery endpoints the way Synapse 1.157 does, quirks included (`uses_allowed: 0` is unlimited at registration
 * time, pending uses held for 48 h, the same-URI rule, the `new` token path, MSC3861 mode). The portal's tests drive
 * it over HTTP and the portal's demo mode registers it as a managed server.
 *
 * Every rule it copies, the place in Synapse or the Matrix spec that defines it, and what it leaves out are listed
 * in docs/homeserver-simulator.md.
 *
 * @example
 * const hs = await startHomeserverSimulator({ serverName: "demo.local", rateLimit: false });
 * await fetch(`${hs.url}/_synapse/admin/v1/registration_tokens/new`, {
 *   method: "POST",
 *   headers: { Authorization: `Bearer ${hs.adminToken}` },
 *   body: JSON.stringify({ token: "welcome", uses_allowed: 5 }),
 * });
 * await hs.close();
 */

export { AppserviceConfigError } from "./appservices.ts";
export type {
  HomeserverSimulatorOptions,
  PasswordPolicy,
  RateLimitSettings,
  SeedToken,
  SeedUser,
} from "./options.ts";
export { DEFAULT_REGISTRATION_RATE_LIMIT, DEFAULT_VALIDITY_RATE_LIMIT } from "./options.ts";
export { type HomeserverSimulator, startHomeserverSimulator } from "./server.ts";
export type { RequestLogEntry } from "./state.ts";
export type { TokenRecord } from "./token-store.ts";
export { SESSION_LIFETIME_MS } from "./uia-session.ts";
