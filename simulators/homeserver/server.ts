import { Hono } from "hono";
import { startHttpServer } from "../../lib/http-server.ts";
import { createLogger } from "../../lib/logger.ts";
import { registerAccountRoutes } from "./account.ts";
import { registerAdminTokenRoutes } from "./admin-tokens.ts";
import { parseAppserviceRegistration } from "./appservices.ts";
import { registerDiscoveryRoutes } from "./discovery.ts";
import { CORS_HEADERS, matrixErrorHandler, unrecognized } from "./errors.ts";
import {
  DEFAULT_REGISTRATION_RATE_LIMIT,
  type HomeserverSimulatorOptions,
  type RateLimitSettings,
  resolveOptions,
} from "./options.ts";
import { registerProfileRoutes } from "./profile.ts";
import { createLimiters } from "./rate-limit.ts";
import { registerRegistrationRoutes } from "./register-uia.ts";
import { HomeserverState, hashPassword, type RequestLogEntry, type ResponseHold, type SimulatorContext } from "./state.ts";
import { type TokenRecord, TokenStore } from "./token-store.ts";
import { UiaSessions } from "./uia-session.ts";

/** A running simulated Synapse. Every instance has its own state; nothing is shared between instances. */
export interface HomeserverSimulator {
  /** Base URL, e.g. `http://127.0.0.1:40123` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  readonly serverName: string;
  /** An admin user's access token (`@admin:<serverName>`), for the portal's managed-server config. */
  readonly adminToken: string;
  /** Creates an account directly (as Synapse's admin API would) and returns a fresh access token for it. */
  createUser(localpart: string, opts?: { admin?: boolean; password?: string }): { userId: string; accessToken: string };
  users(): { userId: string; displayName?: string; avatarUrl?: string; admin: boolean; createdAt: number }[];
  /** Snapshot of every registration token, in creation order. */
  tokens(): TokenRecord[];
  /** Switches MSC3861 / MAS mode on or off while running, as a restart with another config would. */
  setDelegatedAuth(on: boolean): void;
  /** Sets `rc_registration`; `false` turns every rate limiter off. */
  setRateLimit(limit: RateLimitSettings | false): void;
  /** Adds an appservice's exclusive user namespace (a regex matched against full user IDs from the start). */
  addExclusiveNamespace(regex: string): void;
  /**
   * Loads an appservice registration (YAML text or its parsed object) as Synapse does for a file listed in
   * `app_service_config_files` at start-up: validated like Synapse's loader (an invalid file throws
   * AppserviceConfigError, as Synapse refuses to start), `id` and `as_token` unique. Its `as_token` then works as an
   * access token (whoami, masquerading with `?user_id=`, appservice registration) and its exclusive namespaces apply.
   */
  registerAppservice(registration: string | object): { id: string; sender: string };
  /** Unloads a registration (its file removed from the config and a restart); true when it was loaded. */
  removeAppservice(id: string): boolean;
  /** The loaded registrations. */
  appservices(): { id: string; sender: string; url: string | null }[];
  /** Every request handled so far: method, path without query, status. */
  requests(): RequestLogEntry[];
  /**
   * Holds back the answers to matching requests until `release()`: each is handled when it arrives (the answer
   * reflects the state then, like a reply slowed down on the wire) and sent only on release. For tests of callers
   * that overlap a slow answer. `held()` counts the answers parked so far.
   */
  holdResponses(match: (request: { method: string; path: string }) => boolean): { held(): number; release(): void };
  /** Runs Synapse's UIA session sweep now (sessions ≥ 48 h old go, giving back pending token uses); returns how many. */
  expireSessions(): number;
  close(): Promise<void>;
}

/** Synapse's answer for any path no servlet claims. */
const notFound = () => unrecognized(404);

/** The Hono app of one simulated server: CORS and OPTIONS like Synapse, a request log, then the servlets. */
export function createSimulatorApp(ctx: SimulatorContext): Hono {
  const app = new Hono();
  app.onError(matrixErrorHandler);
  app.notFound((c) => matrixErrorHandler(notFound(), c));
  app.use(async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(CORS_HEADERS)) c.res.headers.set(name, value);
    ctx.state.requestLog.push({ method: c.req.method, path: c.req.path, status: c.res.status });
    if (ctx.state.holds.size === 0) return;
    const hold = [...ctx.state.holds].find((candidate) => candidate.match({ method: c.req.method, path: c.req.path }));
    if (hold) {
      hold.parked++;
      await hold.released;
    }
  });
  app.use(async (c, next) => {
    // Synapse's OptionsResource answers every OPTIONS request (CORS preflight) with 204.
    if (c.req.method === "OPTIONS") return c.body(null, 204);
    ctx.sessions.maybeSweep();
    await next();
  });
  registerDiscoveryRoutes(app, ctx);
  registerAdminTokenRoutes(app, ctx);
  registerAccountRoutes(app, ctx);
  registerProfileRoutes(app, ctx);
  registerRegistrationRoutes(app, ctx);
  return app;
}

/** Refuses localparts that Synapse could never hold (the characters of `check_username`). */
function assertLocalpart(localpart: string): void {
  if (!/^[a-z0-9._=\-/+]+$/.test(localpart)) throw new Error(`invalid localpart "${localpart}": use a-z, 0-9 and ._=-/+`);
}

function urlHost(host: string): string {
  if (host === "0.0.0.0" || host === "::" || host === "") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

/**
 * Starts a simulated Synapse on `host:port` (127.0.0.1 and a free port by default) with an admin user
 * `@admin:<serverName>` whose token is `adminToken`, plus any seeded users and registration tokens.
 */
export async function startHomeserverSimulator(options: HomeserverSimulatorOptions = {}): Promise<HomeserverSimulator> {
  const resolved = resolveOptions(options);
  const now = resolved.now;
  const state = new HomeserverState(resolved.serverName, now, {
    delegatedAuth: options.delegatedAuth ?? false,
    rateLimit: options.rateLimit ?? DEFAULT_REGISTRATION_RATE_LIMIT,
  });
  const tokens = new TokenStore(now);
  const ctx: SimulatorContext = {
    options: resolved,
    state,
    tokens,
    sessions: new UiaSessions(tokens, now),
    limiters: createLimiters(() => state.settings.rateLimit, resolved.validityRateLimit, now),
  };
  for (const regex of options.exclusiveNamespaces ?? []) state.addExclusiveNamespace(regex);
  for (const registration of options.appserviceRegistrations ?? []) {
    state.addAppservice(parseAppserviceRegistration(state.serverName, registration));
  }

  const createUser = (localpart: string, opts: { admin?: boolean; password?: string; displayName?: string } = {}) => {
    assertLocalpart(localpart);
    const user = state.addUser(localpart, {
      admin: opts.admin ?? false,
      ...(opts.password === undefined ? {} : { passwordHash: hashPassword(opts.password) }),
      ...(opts.displayName === undefined ? {} : { displayName: opts.displayName }),
    });
    return user.userId;
  };
  const admin = createUser("admin", { admin: true });
  const adminToken = state.issueAccessToken(admin, undefined, options.adminToken).accessToken;
  for (const seed of options.seed?.users ?? []) {
    const userId = createUser(seed.localpart, seed);
    if (seed.accessToken !== undefined) state.issueAccessToken(userId, undefined, seed.accessToken);
  }
  for (const seed of options.seed?.tokens ?? []) {
    if (!tokens.create(seed.token, seed.uses_allowed ?? null, seed.expiry_time ?? null, seed.pending, seed.completed)) {
      throw new Error(`seed token "${seed.token}" is listed twice`);
    }
  }

  const log = options.log ?? createLogger({ name: "homeserver-simulator", level: "silent", destination: { write() {} } });
  const http = await startHttpServer({ app: createSimulatorApp(ctx), host: resolved.host, port: resolved.port, log });
  return {
    url: `http://${urlHost(resolved.host)}:${http.port}`,
    port: http.port,
    serverName: resolved.serverName,
    adminToken,
    createUser(localpart, opts = {}) {
      const userId = createUser(localpart, opts);
      return { userId, accessToken: state.issueAccessToken(userId).accessToken };
    },
    users: () =>
      state.users().map((user) => ({
        userId: user.userId,
        ...(user.displayName === undefined ? {} : { displayName: user.displayName }),
        ...(user.avatarUrl === undefined ? {} : { avatarUrl: user.avatarUrl }),
        admin: user.admin,
        createdAt: user.createdAt,
      })),
    tokens: () => tokens.all(),
    setDelegatedAuth(on) {
      state.settings.delegatedAuth = on;
    },
    setRateLimit(limit) {
      state.settings.rateLimit = limit;
    },
    addExclusiveNamespace: (regex) => state.addExclusiveNamespace(regex),
    registerAppservice(registration) {
      const service = parseAppserviceRegistration(state.serverName, registration);
      state.addAppservice(service);
      return { id: service.id, sender: service.sender };
    },
    removeAppservice: (id) => state.removeAppservice(id),
    appservices: () => state.appservices().map((service) => ({ id: service.id, sender: service.sender, url: service.url })),
    requests: () => state.requestLog.map((entry) => ({ ...entry })),
    holdResponses(match) {
      let release = () => {};
      const hold: ResponseHold = { match, parked: 0, released: new Promise<void>((resolve) => (release = resolve)) };
      state.holds.add(hold);
      return {
        held: () => hold.parked,
        release() {
          state.holds.delete(hold);
          release();
        },
      };
    },
    expireSessions: () => ctx.sessions.sweep(),
    close: () => http.close(),
  };
}
