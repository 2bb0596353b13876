import type { Context } from "hono";
import type { Kysely } from "kysely";
import type { Dispatcher } from "undici";
import type { Logger } from "../../lib/logger.ts";
import { AuditRepository } from "./audit/audit.repository.ts";
import { AuditService } from "./audit/audit.service.ts";
import { AuditNamesRepository } from "./audit/audit-names.repository.ts";
import { LoginAuditRepository } from "./audit/login-audit.repository.ts";
import { LoginAudit } from "./audit/login-audit.ts";
import { AuthRepository } from "./auth/auth.repository.ts";
import { AuthService } from "./auth/auth.service.ts";
import { BotsRepository } from "./bots/bots.repository.ts";
import { BotsService } from "./bots/bots.service.ts";
import { AssetStore } from "./branding/asset-store.ts";
import { BrandingRepository } from "./branding/branding.repository.ts";
import { BrandingService } from "./branding/branding.service.ts";
import type { PortalConfig } from "./config.ts";
import { DEFAULT_SCRYPT, type ScryptParams } from "./crypto/password-hash.ts";
import { SecretBox } from "./crypto/secret-box.ts";
import { Leases } from "./db/leases.ts";
import type { Database } from "./db/schema.ts";
import { GENERATIONS, WriteGeneration } from "./db/write-generation.ts";
import { DiagnosticsService } from "./diagnostics/diagnostics.service.ts";
import { HomeserverConnector } from "./homeserver/connector.ts";
import type { OutboundPolicy } from "./homeserver/outbound-policy.ts";
import { createOriginResolver, type RequestOrigin, warnUntrustedProxy } from "./http/client-ip.ts";
import { type CapabilityProbe, systemCapabilityProbe } from "./integrations/deployment-environment.ts";
import { IntegrationFiles } from "./integrations/integration-files.ts";
import { IntegrationsRepository } from "./integrations/integrations.repository.ts";
import { IntegrationsService } from "./integrations/integrations.service.ts";
import { MasTokenInspector } from "./mas/mas-token-inspector.ts";
import { PortalMetrics } from "./metrics/portal-metrics.ts";
import { LoginLimits } from "./rate-limit/login-limits.ts";
import { RateLimitRepository } from "./rate-limit/rate-limit.repository.ts";
import { createLimiters } from "./rate-limit/rate-limiter.ts";
import { RegistrationsRepository } from "./registration/registration.repository.ts";
import { RegistrationService } from "./registration/registration.service.ts";
import { type ClaimTimings, TokenClaims } from "./registration/token-claims.ts";
import { ServerResolver } from "./servers/server-resolver.ts";
import { ServersRepository } from "./servers/servers.repository.ts";
import { ServersService } from "./servers/servers.service.ts";
import { StatsService } from "./stats/stats.service.ts";
import { SynapseTokenInspector } from "./tokens/token-inspector.ts";
import { TokensRepository } from "./tokens/tokens.repository.ts";
import { TokensService } from "./tokens/tokens.service.ts";

/** The services routes call; each owns its repository. */
export interface PortalServices {
  readonly auth: AuthService;
  readonly servers: ServersService;
  readonly resolver: ServerResolver;
  readonly tokens: TokensService;
  readonly registration: RegistrationService;
  readonly diagnostics: DiagnosticsService;
  readonly audit: AuditService;
  /** Admin logins in the audit log; `stop()` at shutdown writes the summaries of ended windows and stops the timer. */
  readonly loginAudit: LoginAudit;
  readonly stats: StatsService;
  readonly branding: BrandingService;
  readonly bots: BotsService;
  readonly integrations: IntegrationsService;
}

/**
 * The portal's typed context, built once at start (start-portal.ts) and passed down; there are no module
 * singletons. It holds services, not the database or the key: only repositories touch Kysely, and only the
 * secret box (inside the services) sees the key.
 */
export interface PortalContext {
  readonly config: PortalConfig;
  readonly log: Logger;
  readonly version: string;
  readonly startedAt: number;
  /** The clock every service reads (tests move it to expire sessions). */
  readonly now: () => number;
  /** Client IP, host and scheme of a request, honouring X-Forwarded-* from PORTAL_TRUSTED_PROXIES only. */
  readonly originOf: (c: Context) => RequestOrigin;
  readonly services: PortalServices;
  /** Prometheus metrics (`/api/metrics/prometheus`): sign-ups, token operations, homeserver calls, the process. */
  readonly metrics: PortalMetrics;
}

export interface ContextDependencies {
  config: PortalConfig;
  log: Logger;
  version: string;
  secretKey: Buffer;
  db: Kysely<Database>;
  /** The undici dispatcher for homeserver calls (closed by whoever created it), enforcing `outbound`. */
  http: Dispatcher;
  /** The outbound rules, also checked on internal URLs when servers are saved. */
  outbound: OutboundPolicy;
  now?: () => number;
  /** scrypt cost for new password hashes (tests lower it for speed). */
  passwordHashing?: ScryptParams;
  /** What the environment offers for managed integrations (Docker socket, CLI, Compose); tests inject their own. */
  deploymentCapabilities?: CapabilityProbe;
  /** How sign-ups with one token wait for each other across instances (tests shorten them). */
  claimTimings?: ClaimTimings;
}

/** Wires repositories, clients and services together. */
export function createPortalContext(deps: ContextDependencies): PortalContext {
  const now = deps.now ?? Date.now;
  const secrets = new SecretBox(deps.secretKey);
  const rateLimits = new RateLimitRepository(deps.db);
  const limiters = createLimiters(rateLimits, now);
  const startedAt = now();
  const metrics = new PortalMetrics(startedAt, now);
  const connector = new HomeserverConnector(
    secrets,
    deps.http,
    deps.outbound,
    deps.log.child({ component: "homeserver" }),
    (outcome, seconds) => metrics.homeserverCall(outcome, seconds),
    now,
  );
  const audit = new AuditService(new AuditRepository(deps.db), new AuditNamesRepository(deps.db), now);
  const loginAudit = new LoginAudit(
    audit,
    new LoginAuditRepository(deps.db),
    (text) => secrets.fingerprint(text, "login-audit"),
    now,
  );
  // Both write the servers table; the servers repository keeps rows in memory and must see the other's writes.
  const serverWrites = new WriteGeneration(deps.db, GENERATIONS.servers);
  const serversRepository = new ServersRepository(deps.db, serverWrites);
  const tokensRepository = new TokensRepository(deps.db);
  const registrationsRepository = new RegistrationsRepository(deps.db);
  const diagnostics = new DiagnosticsService(connector, now, deps.log.child({ component: "diagnostics" }));
  const branding = new BrandingService(
    new BrandingRepository(deps.db, serverWrites),
    serversRepository,
    new AssetStore(deps.config.dataDir, deps.log.child({ component: "branding" })),
    audit,
    now,
  );
  const servers = new ServersService(serversRepository, connector, diagnostics, audit, now, (id) => branding.exists(id));
  const bots = new BotsService(
    new BotsRepository(deps.db),
    servers,
    secrets,
    connector,
    audit,
    now,
    deps.log.child({ component: "bots" }),
  );
  const integrations = new IntegrationsService(
    new IntegrationsRepository(deps.db),
    servers,
    secrets,
    connector,
    new IntegrationFiles(deps.config.dataDir),
    deps.deploymentCapabilities ?? systemCapabilityProbe(),
    bots,
    audit,
    now,
    deps.log.child({ component: "integrations" }),
  );
  const resolver = new ServerResolver(serversRepository);
  const tokens = new TokensService(servers, connector, tokensRepository, audit, now);
  servers.onDeleted(() => integrations.removeFilesOfDeletedIntegrations());
  const authLog = deps.log.child({ component: "auth" });
  const registrationLog = deps.log.child({ component: "registration" });
  // One token inspector per kind of server (issue 23: MAS servers' tokens are MAS's).
  const synapseTokens = new SynapseTokenInspector(connector, now, registrationLog);
  const masTokens = new MasTokenInspector(connector, now, registrationLog);
  return {
    config: deps.config,
    log: deps.log,
    version: deps.version,
    startedAt,
    now,
    metrics,
    originOf: createOriginResolver(deps.config.trustedProxies, warnUntrustedProxy(deps.log.child({ component: "http" }))),
    services: {
      auth: new AuthService(
        new AuthRepository(deps.db),
        secrets,
        new LoginLimits(rateLimits, now, (typed) => secrets.fingerprint(typed, "login-account")),
        now,
        authLog,
        deps.passwordHashing ?? DEFAULT_SCRYPT,
        loginAudit,
      ),
      servers,
      resolver,
      tokens,
      registration: new RegistrationService(
        resolver,
        connector,
        tokensRepository,
        registrationsRepository,
        limiters,
        now,
        registrationLog,
        (serverId) => tokens.forget(serverId),
        (server) => (server.kind === "mas" ? masTokens : synapseTokens),
        new TokenClaims(new Leases(deps.db, now), registrationLog, deps.claimTimings),
      ),
      diagnostics,
      audit,
      loginAudit,
      stats: new StatsService(tokens, registrationsRepository, now),
      branding,
      bots,
      integrations,
    },
  };
}
