import { HttpError } from "../../../lib/http-error.ts";
import type { BotsService } from "../bots/bots.service.ts";
import type { HomeserverConnector } from "../homeserver/connector.ts";
import { HomeserverUnreachable } from "../homeserver/homeserver-client.ts";
import { whoami } from "../homeserver/matrix-identity.ts";
import type { ServerRow } from "../servers/servers.repository.ts";
import { findEntry } from "./catalog/index.ts";
import type { CatalogEntry, DeploymentMode } from "./catalog/types.ts";
import { type CapabilityProbe, canManage } from "./deployment-environment.ts";
import type { FileManifestEntry, FilesCheck, IntegrationFiles } from "./integration-files.ts";
import { applicableSecrets, envName, type IntegrationSecrets } from "./integration-secrets.ts";
import { type IntegrationRow, type IntegrationsRepository, parseColumn } from "./integrations.repository.ts";

const PROBE_TIMEOUT_MS = 5_000;

export interface IntegrationHealth {
  checkedAt: string;
  healthy: boolean;
  homeserverReachable: boolean;
  appservice: AppserviceCheck | null;
  doublePuppet: AppserviceCheck | null;
  files: FilesCheck;
  missingSecrets: string[];
  errors: string[];
}

/** whoami with an appservice's `as_token`: `registered` null when the homeserver could not be asked. */
export interface AppserviceCheck {
  id: string;
  expectedUserId: string;
  registered: boolean | null;
  userId: string | null;
  reason: string | null;
}

/** The system-wide integration diagnostics (portal spec: key `diagnostics`). */
export interface IntegrationDiagnostics {
  homeserverConnectivity: boolean;
  appserviceRegistrationOk: boolean;
  filesystemWritable: boolean;
  dockerAvailable: boolean;
  dockerComposeAvailable: boolean;
  capabilityMode: DeploymentMode;
  envVarsPresent: string[];
  envVarsMissing: string[];
  integrationHealth: Record<string, unknown>;
  botHealth: Record<string, unknown>;
  errors: string[];
  checkedAt: string;
}

export interface IntegrationHealthDeps {
  repository: IntegrationsRepository;
  connector: HomeserverConnector;
  files: IntegrationFiles;
  capabilities: CapabilityProbe;
  bots: BotsService;
  secrets: IntegrationSecrets;
  now: () => number;
}

/** The health check of one integration and the diagnostics of a server's integrations and bots. Stores nothing. */
export class IntegrationHealthChecks {
  constructor(private readonly deps: IntegrationHealthDeps) {}

  /**
   * The health check: homeserver reachable (`/_matrix/client/versions`), the appservice registration loaded (whoami
   * with the `as_token` answers its sender; also for the double-puppet registration), the generated files present,
   * unchanged and writable, and the required secrets set.
   */
  async check(row: IntegrationRow, server: ServerRow, entry: CatalogEntry): Promise<IntegrationHealth> {
    const config = parseColumn<Record<string, unknown>>(row.config, {});
    const errors: string[] = [];
    let secrets = new Map<string, string>();
    try {
      secrets = await this.deps.secrets.open(row.id);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      errors.push(error.message);
    }
    const [homeserverReachable, files, appservice, doublePuppet] = await Promise.all([
      this.homeserverReachable(server),
      this.deps.files.check(row.id, parseColumn<FileManifestEntry[]>(row.files, [])),
      row.appservice_id && row.sender_localpart
        ? this.appservice(server, row.appservice_id, secrets.get("as_token"), row.sender_localpart)
        : Promise.resolve(null),
      row.appservice_id && row.sender_localpart && config.doublePuppet === true
        ? this.appservice(
            server,
            `${row.appservice_id}-doublepuppet`,
            secrets.get("double_puppet_as_token"),
            `${row.sender_localpart}dp`,
          )
        : Promise.resolve(null),
    ]);
    const present = new Set((await this.deps.repository.listSecrets(row.id)).map((secret) => secret.key));
    const missingSecrets = applicableSecrets(entry, config)
      .filter((spec) => spec.required && !present.has(spec.key))
      .map((spec) => spec.key);
    if (!homeserverReachable) errors.push(`The homeserver at ${server.internal_url} cannot be reached`);
    for (const check of [appservice, doublePuppet]) {
      if (check && check.registered !== true) errors.push(`Appservice ${check.id} not confirmed: ${check.reason}`);
    }
    if (files.missing.length > 0) errors.push(`Generated files missing: ${files.missing.join(", ")}`);
    if (files.notWritable.length > 0) errors.push(`Generated files not writable: ${files.notWritable.join(", ")}`);
    if (files.modified.length > 0) errors.push(`Generated files changed outside the portal: ${files.modified.join(", ")}`);
    if (missingSecrets.length > 0) errors.push(`Secrets not set: ${missingSecrets.join(", ")}`);
    return {
      checkedAt: this.isoNow(),
      healthy: errors.length === 0,
      homeserverReachable,
      appservice,
      doublePuppet,
      files,
      missingSecrets,
      errors,
    };
  }

  /** The system-wide diagnostics of a server's integrations (`rows`) and bots; runs the checks now. */
  async diagnostics(server: ServerRow, rows: readonly IntegrationRow[]): Promise<IntegrationDiagnostics> {
    const { repository, files } = this.deps;
    const [capabilities, homeserverConnectivity, filesystemWritable, botHealth] = await Promise.all([
      this.deps.capabilities(),
      this.homeserverReachable(server),
      files.writable(),
      this.deps.bots.health(server.id),
    ]);
    const checks = await Promise.all(
      rows.map(async (row) => {
        const entry = findEntry(row.catalog_id);
        return { row, entry, health: entry ? await this.check(row, server, entry) : undefined };
      }),
    );
    const errors: string[] = [];
    if (!homeserverConnectivity) errors.push(`The homeserver at ${server.internal_url} cannot be reached`);
    if (!filesystemWritable) errors.push(`Integration files cannot be written under ${files.root}`);
    const envVarsPresent: string[] = [];
    const envVarsMissing: string[] = [];
    const integrationHealth: Record<string, unknown> = {};
    for (const { row, entry, health } of checks) {
      if (!entry || !health) {
        integrationHealth[row.id] = {
          name: row.name,
          catalogId: row.catalog_id,
          healthy: false,
          errors: ["Unknown catalog entry"],
        };
        errors.push(`${row.name}: its catalog entry ${row.catalog_id} no longer exists`);
        continue;
      }
      const present = new Set((await repository.listSecrets(row.id)).map((secret) => secret.key));
      for (const spec of applicableSecrets(entry, parseColumn(row.config, {})).filter((candidate) => candidate.required)) {
        (present.has(spec.key) ? envVarsPresent : envVarsMissing).push(envName(entry, spec));
      }
      integrationHealth[row.id] = {
        name: row.name,
        catalogId: row.catalog_id,
        type: row.type,
        status: row.status,
        enabled: row.enabled === 1,
        deploymentMode: row.deployment_mode,
        healthy: health.healthy,
        appserviceRegistered: health.appservice?.registered ?? null,
        filesPresent: health.files.present,
        filesWritable: health.files.writable,
        missingSecrets: health.missingSecrets,
        errors: health.errors,
      };
      errors.push(...health.errors.map((error) => `${row.name}: ${error}`));
    }
    for (const [botId, bot] of Object.entries(botHealth)) {
      const { displayName, errors: botErrors } = bot as { displayName: string; errors: string[] };
      errors.push(...botErrors.map((error) => `Bot ${displayName} (${botId}): ${error}`));
    }
    const appserviceChecks = checks.flatMap(({ health }) => (health?.appservice ? [health.appservice] : []));
    return {
      homeserverConnectivity,
      appserviceRegistrationOk: appserviceChecks.every((check) => check.registered === true),
      filesystemWritable: filesystemWritable && checks.every(({ health }) => health?.files.writable !== false),
      dockerAvailable: capabilities.dockerSocket && capabilities.dockerCli,
      dockerComposeAvailable: capabilities.dockerCompose,
      capabilityMode: server.managed_mode === "guided" || !canManage(capabilities) ? "guided" : "managed",
      envVarsPresent,
      envVarsMissing,
      integrationHealth,
      botHealth,
      errors,
      checkedAt: this.isoNow(),
    };
  }

  /** whoami with an appservice's `as_token` must answer its sender. */
  private async appservice(server: ServerRow, id: string, token: string | undefined, sender: string): Promise<AppserviceCheck> {
    const expectedUserId = `@${sender}:${server.server_name}`;
    const failed = (registered: false | null, reason: string) => ({ id, expectedUserId, registered, userId: null, reason });
    if (token === undefined) return failed(false, "the as_token is not available");
    const outcome = await whoami(this.deps.connector.tokenClient(server, token, PROBE_TIMEOUT_MS));
    if (outcome.kind === "ok") {
      const matches = outcome.userId === expectedUserId;
      return {
        id,
        expectedUserId,
        registered: matches,
        userId: outcome.userId,
        reason: matches ? null : `the as_token belongs to ${outcome.userId}`,
      };
    }
    if (outcome.kind === "refused") {
      return failed(
        false,
        `${outcome.errcode}: the homeserver does not know this as_token; add the registration to app_service_config_files and restart the homeserver`,
      );
    }
    return failed(null, `the homeserver could not be asked (${outcome.reason})`);
  }

  private async homeserverReachable(server: ServerRow): Promise<boolean> {
    try {
      const response = await this.deps.connector.publicClient(server, PROBE_TIMEOUT_MS).call("GET", "/_matrix/client/versions");
      return response.status === 200 && Array.isArray(response.body.versions);
    } catch (error) {
      if (error instanceof HomeserverUnreachable) return false;
      throw error;
    }
  }

  private isoNow(): string {
    return new Date(this.deps.now()).toISOString();
  }
}
