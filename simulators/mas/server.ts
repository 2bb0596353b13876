import { randomBytes } from "node:crypto";
import { Hono } from "hono";
import { startHttpServer } from "../../lib/http-server.ts";
import { createLogger } from "../../lib/logger.ts";
import { type AccessTokenRecord, AccessTokens } from "./access-tokens.ts";
import { registerAdminTokenRoutes } from "./admin-tokens.ts";
import type { ClientRecord, MasContext, MasRequestLogEntry, MasUser } from "./context.ts";
import { masErrorHandler } from "./errors.ts";
import { registerOAuthRoutes } from "./oauth.ts";
import { type MasSimulatorOptions, resolveMasOptions } from "./options.ts";
import { registerRegistrationRoutes } from "./register.ts";
import { isValid, type RegistrationTokenRow, RegistrationTokens } from "./registration-tokens.ts";
import { registerServerInfoRoutes } from "./server-info.ts";
import { UlidFactory } from "./ulid.ts";

/** A running simulated Matrix Authentication Service. Every instance has its own state. */
export interface MasSimulator {
  /** Base URL, e.g. `http://127.0.0.1:40123` (no trailing slash): where the admin API and token endpoint answer. */
  readonly url: string;
  readonly port: number;
  /** The issuer (`http.public_base`), with its trailing slash. */
  readonly issuer: string;
  readonly serverName: string;
  /** The first static client (an admin client unless configured otherwise), for the portal's server config. */
  readonly client: { clientId: string; clientSecret: string };
  /** Every registration token, in id order (copies). */
  tokens(): RegistrationTokenRow[];
  /** Adds a token directly (as `mas-cli manage issue-user-registration-token` would); throws if the string is taken. */
  addToken(token: string, fields?: { usageLimit?: number | null; expiresAt?: number | null }): RegistrationTokenRow;
  /**
   * A person finished signing up on MAS with this token: checked as MAS's token step does, then counted. False when
   * MAS would refuse the token (unknown, revoked, expired or used up).
   */
  useToken(token: string, username?: string): boolean;
  /** Accounts created through the simulated registration. */
  users(): MasUser[];
  /** Every access token issued (copies): how often the portal asked the token endpoint. */
  accessTokens(): AccessTokenRecord[];
  /** Finishes every OAuth session: tokens issued so far answer 401 "Access token revoked". */
  revokeAccessTokens(): number;
  /** `502`: every request gets a proxy's HTML 502 page, as when MAS behind a reverse proxy is stopped; false: back. */
  setDown(mode: "502" | false): void;
  /** Every request handled so far: method, path without query, status. */
  requests(): MasRequestLogEntry[];
  close(): Promise<void>;
}

function urlHost(host: string): string {
  if (host === "0.0.0.0" || host === "::" || host === "") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

/** A ULID-looking client id (static clients in MAS's config need one). */
const newClientId = () => new UlidFactory(Date.now).next();

/** The Hono app of one simulated MAS: a request log, the "down" switch, then the routes. */
function createMasApp(ctx: MasContext): Hono {
  const app = new Hono();
  app.onError(masErrorHandler);
  // axum's fallback: an empty 404; a known path with another method: an empty 405.
  app.notFound((c) => c.body(null, 404));
  app.use(async (c, next) => {
    if (ctx.down) {
      ctx.requestLog.push({ method: c.req.method, path: c.req.path, status: 502 });
      return c.html("<html><body><h1>502 Bad Gateway</h1></body></html>", 502);
    }
    await next();
    ctx.requestLog.push({ method: c.req.method, path: c.req.path, status: c.res.status });
  });
  registerOAuthRoutes(app, ctx);
  registerServerInfoRoutes(app, ctx);
  registerAdminTokenRoutes(app, ctx);
  registerRegistrationRoutes(app, ctx);
  return app;
}

/**
 * Starts a simulated MAS on `host:port` (127.0.0.1 and a free port by default) with its static clients (one admin
 * client by default) and any seeded registration tokens.
 */
export async function startMasSimulator(options: MasSimulatorOptions = {}): Promise<MasSimulator> {
  const resolved = resolveMasOptions(options);
  const clients = new Map<string, ClientRecord>();
  for (const client of options.clients ?? [{ clientId: newClientId(), clientSecret: randomBytes(24).toString("base64url") }]) {
    clients.set(client.clientId, {
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      authMethod: client.authMethod ?? "client_secret_basic",
      admin: client.admin ?? true,
      grantTypes: client.grantTypes ?? ["client_credentials"],
    });
  }
  const first = [...clients.values()][0];
  if (!first) throw new Error("a MAS simulator needs at least one client");
  let publicBase = options.publicBase;
  const ctx: MasContext = {
    options: resolved,
    publicBase: () => `${(publicBase ?? "").replace(/\/+$/, "")}/`,
    clients,
    accessTokens: new AccessTokens(),
    registrationTokens: new RegistrationTokens(new UlidFactory(resolved.now), resolved.now),
    users: [],
    requestLog: [],
    down: false,
  };
  for (const seed of options.seed?.tokens ?? []) {
    const row = ctx.registrationTokens.add(seed.token, {
      usageLimit: seed.usageLimit ?? null,
      expiresAt: seed.expiresAt ?? null,
      timesUsed: seed.timesUsed ?? 0,
      revokedAt: seed.revokedAt ?? null,
    });
    if (!row) throw new Error(`seed token "${seed.token}" is listed twice`);
  }
  const log = options.log ?? createLogger({ name: "mas-simulator", level: "silent", destination: { write() {} } });
  const http = await startHttpServer({ app: createMasApp(ctx), host: resolved.host, port: resolved.port, log });
  const url = `http://${urlHost(resolved.host)}:${http.port}`;
  publicBase ??= url;
  return {
    url,
    port: http.port,
    issuer: ctx.publicBase(),
    serverName: resolved.serverName,
    client: { clientId: first.clientId, clientSecret: first.clientSecret },
    tokens: () => ctx.registrationTokens.all(),
    addToken(token, fields = {}) {
      const row = ctx.registrationTokens.add(token, fields);
      if (!row) throw new Error(`token "${token}" exists already`);
      return { ...row };
    },
    useToken(token, username = `user${ctx.users.length + 1}`) {
      const row = ctx.registrationTokens.findByToken(token.trim());
      if (!row || !isValid(row, resolved.now())) return false;
      ctx.registrationTokens.use(row);
      ctx.users.push({ username, token: row.token, createdAt: resolved.now() });
      return true;
    },
    users: () => ctx.users.map((user) => ({ ...user })),
    accessTokens: () => ctx.accessTokens.all(),
    revokeAccessTokens: () => ctx.accessTokens.revokeAll(),
    setDown(mode) {
      ctx.down = mode === "502";
    },
    requests: () => ctx.requestLog.map((entry) => ({ ...entry })),
    close: () => http.close(),
  };
}
