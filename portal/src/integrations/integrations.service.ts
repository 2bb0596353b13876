import { createHash, generateKeyPair, randomBytes, randomInt, randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { badRequest, conflict, HttpError, notFound } from "../../../lib/http-error.ts";
import type { Logger } from "../../../lib/logger.ts";
import type { AuditActor, AuditService } from "../audit/audit.service.ts";
import type { BotsService } from "../bots/bots.service.ts";
import { type SecretBox, SecretBoxError } from "../crypto/secret-box.ts";
import { uniqueViolation } from "../db/constraints.ts";
import type { HomeserverConnector } from "../homeserver/connector.ts";
import { HomeserverUnreachable } from "../homeserver/homeserver-client.ts";
import { whoami } from "../homeserver/matrix-identity.ts";
import type { ServerRow } from "../servers/servers.repository.ts";
import type { ServersService } from "../servers/servers.service.ts";
import { findEntry, searchCatalog } from "./catalog/index.ts";
import {
  type CatalogEntry,
  type DeploymentMode,
  type GeneratedFile,
  type GenerationContext,
  type IntegrationType,
  publicEntry,
  type SecretGenerator,
  type SecretSpec,
} from "./catalog/types.ts";
import { applyConfigChange, defaultConfig } from "./config-schema.ts";
import { type CapabilityProbe, canManage, type DeploymentCapabilities } from "./deployment-environment.ts";
import type { FileManifestEntry, FilesCheck, IntegrationFiles } from "./integration-files.ts";
import type { IntegrationRow, IntegrationsRepository, SecretRow } from "./integrations.repository.ts";

/** The secret box context of an integration secret: the ciphertext only opens for this integration and key. */
export const integrationSecretContext = (integrationId: string, key: string) => `integration:${integrationId}:secret:${key}`;

const PROBE_TIMEOUT_MS = 5_000;
const SENDER_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const parseJson = <T>(json: string | null, fallback: T): T => {
  try {
    return json === null ? fallback : (JSON.parse(json) as T);
  } catch {
    return fallback;
  }
};

async function generateSecret(kind: SecretGenerator): Promise<string> {
  if (kind === "token") return randomBytes(32).toString("base64url");
  if (kind === "password") return randomBytes(18).toString("base64url");
  const { privateKey } = await promisify(generateKeyPair)("rsa", {
    modulusLength: 4096,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  return privateKey;
}

/** The secrets a configuration needs (those with a `when` that does not hold are left out). */
const applicableSecrets = (entry: CatalogEntry, config: Record<string, unknown>) =>
  entry.secrets.filter((spec) => spec.when === undefined || spec.when(config));

/** The environment-variable style name of a required input, for the diagnostics' `envVars*` lists. */
const envName = (entry: CatalogEntry, spec: SecretSpec) =>
  spec.env ?? `${entry.id.replace(/[^A-Za-z0-9]+/g, "_").toUpperCase()}_${spec.key.toUpperCase()}`;

export interface IntegrationRecord {
  id: string;
  serverId: string;
  catalogId: string;
  name: string;
  type: string;
  deploymentMode: string;
  status: string;
  enabled: boolean;
  /** The configuration version (the latest snapshot), as a string. */
  version: string;
  configVersion: number;
  appserviceId: string | null;
  /** The appservice's sender (`@<sender_localpart>:<server>`), which whoami with the `as_token` must return. */
  appserviceUserId: string | null;
  filesDir: string;
  healthy: boolean | null;
  lastHealthAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface SecretRecord {
  id: string;
  key: string;
  /** Made by the portal (appservice tokens, keys) rather than set by an admin. */
  generated: boolean;
  rotatedAt: string | null;
  createdAt: string;
}

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

/**
 * Integrations of a managed server: the catalog, installation (deployment mode from the environment), generated
 * files (appservice registration, the service's configuration, compose project or instructions), configuration
 * snapshots, sealed secrets, enable/disable, health checks and the system-wide diagnostics.
 */
export class IntegrationsService {
  constructor(
    private readonly repository: IntegrationsRepository,
    private readonly servers: ServersService,
    private readonly box: SecretBox,
    private readonly connector: HomeserverConnector,
    private readonly files: IntegrationFiles,
    private readonly capabilities: CapabilityProbe,
    private readonly bots: BotsService,
    private readonly audit: AuditService,
    private readonly now: () => number,
    private readonly log: Logger,
  ) {}

  /** After a server's deletion (its integrations went with it): removes the generated files left behind. */
  async removeFilesOfDeletedIntegrations(): Promise<void> {
    const removed = await this.files.removeOrphans(await this.repository.allIds());
    if (removed.length > 0) this.log.info({ integrations: removed }, "removed the generated files of deleted integrations");
  }

  catalog(filter: { type?: IntegrationType | undefined; search?: string | undefined }) {
    return searchCatalog(filter).map(publicEntry);
  }

  async list(serverId: string): Promise<IntegrationRecord[]> {
    const server = await this.servers.requireRow(serverId);
    return (await this.repository.listForServer(serverId)).map((row) => this.toRecord(row, server));
  }

  async get(id: string, serverId?: string) {
    const { row, server, entry } = await this.require(id, serverId);
    return this.detail(row, server, entry);
  }

  /**
   * Installs a catalog entry on a server: one installation per entry and server (409). Deployment mode: `managed`
   * when the entry supports it, the server's `managedMode` is not `guided`, and Docker (socket, CLI, Compose) is
   * available; `guided` otherwise. Generated secrets are sealed, configuration version 1 is snapshotted, the files
   * are written. The integration starts `installed` and disabled.
   */
  async install(serverId: string, input: { catalogId: string; config?: Record<string, unknown> | undefined }, actor: AuditActor) {
    const server = await this.servers.requireRow(serverId);
    const entry = findEntry(input.catalogId);
    if (!entry) throw badRequest(`Unknown catalogId ${input.catalogId}: see GET /api/admin/integrations?view=catalog`);
    if ((await this.repository.listForServer(serverId)).some((row) => row.catalog_id === entry.id)) {
      throw conflict(`${entry.name} is already installed on this server`);
    }
    const { config } = applyConfigChange(entry, defaultConfig(entry), input.config);
    const capabilities = await this.capabilities();
    const deployment = this.chooseMode(entry, server, capabilities);

    const id = randomUUID();
    const nowIso = this.isoNow();
    const secrets = await this.generateMissing(id, entry, config, new Set(), nowIso);
    const asToken = secrets.plain.get("as_token");
    const senderLocalpart = entry.appservice
      ? entry.appservice.senderLocalpart === "random"
        ? Array.from({ length: 32 }, () => SENDER_ALPHABET[randomInt(SENDER_ALPHABET.length)]).join("")
        : entry.appservice.senderLocalpart
      : null;
    const row: IntegrationRow = {
      id,
      server_id: serverId,
      catalog_id: entry.id,
      name: entry.name,
      type: entry.type,
      deployment_mode: deployment.mode,
      status: "installed",
      enabled: 0,
      config_version: 1,
      config: JSON.stringify(config),
      appservice_id: entry.appservice?.id ?? null,
      sender_localpart: senderLocalpart,
      as_token_hash: asToken === undefined ? null : sha256(asToken),
      files: "[]",
      last_health: null,
      last_health_at: null,
      created_at: nowIso,
      updated_at: nowIso,
    };
    await this.repository
      .insert(
        row,
        { integration_id: id, version: 1, config: row.config, reason: "install", actor: actor.email, created_at: nowIso },
        secrets.rows,
      )
      .catch((error) => {
        const column = uniqueViolation(error);
        if (column === "catalog_id") throw conflict(`${entry.name} is already installed on this server`);
        if (column === "appservice_id")
          throw conflict(`Another integration on this server already uses the appservice id ${row.appservice_id}`);
        throw error;
      });
    try {
      await this.materialize(row, server, entry, secrets.plain);
    } catch (error) {
      await this.repository.deleteIfDisabled(id);
      await this.files.remove(id);
      throw error;
    }
    await this.audit.record(actor, {
      action: "integration.installed",
      serverId,
      target: id,
      detail: { catalogId: entry.id, deploymentMode: deployment.mode, appserviceId: row.appservice_id },
    });
    const installed = (await this.repository.find(id)) as IntegrationRow;
    return { integration: await this.detail(installed, server, entry), deployment: { ...deployment, capabilities } };
  }

  /** A configuration change: validated against the entry, snapshotted as the next version, files regenerated. */
  async updateConfig(id: string, change: Record<string, unknown>, actor: AuditActor) {
    const { row, server, entry } = await this.require(id);
    const current = parseJson<Record<string, unknown>>(row.config, {});
    const { config, fields } = applyConfigChange(entry, current, change);
    if (fields.length === 0) throw badRequest("config names no setting to change");
    const nowIso = this.isoNow();
    const existing = await this.repository.listSecrets(id);
    const added = await this.generateMissing(id, entry, config, new Set(existing.map((secret) => secret.key)), nowIso);
    const version = row.config_version + 1;
    await this.repository.updateConfig(
      id,
      { config: JSON.stringify(config), config_version: version, updated_at: nowIso },
      { integration_id: id, version, config: JSON.stringify(config), reason: "update", actor: actor.email, created_at: nowIso },
      added.rows,
    );
    const updated = (await this.repository.find(id)) as IntegrationRow;
    await this.materialize(updated, server, entry);
    await this.audit.record(actor, {
      action: "integration.updated",
      serverId: row.server_id,
      target: id,
      detail: { version, fields },
    });
    return this.detail((await this.repository.find(id)) as IntegrationRow, server, entry);
  }

  async act(id: string, action: "enable" | "disable" | "health_check", actor: AuditActor) {
    const { row, server, entry } = await this.require(id);
    const nowIso = this.isoNow();
    if (action === "health_check") {
      const health = await this.check(row, server, entry);
      await this.repository.update(id, { last_health: JSON.stringify(health), last_health_at: health.checkedAt });
      return { integration: this.toRecord((await this.repository.find(id)) as IntegrationRow, server), health };
    }
    const enable = action === "enable";
    await this.repository.update(id, { enabled: enable ? 1 : 0, status: enable ? "active" : "inactive", updated_at: nowIso });
    await this.audit.record(actor, {
      action: enable ? "integration.enabled" : "integration.disabled",
      serverId: row.server_id,
      target: id,
    });
    return { integration: this.toRecord((await this.repository.find(id)) as IntegrationRow, server) };
  }

  /** Uninstalls a disabled integration (409 while enabled): its records, secrets, snapshots and generated files. */
  async delete(id: string, actor: AuditActor): Promise<void> {
    const { row } = await this.require(id);
    if (row.enabled === 1) throw conflict("Disable the integration before deleting it");
    if (!(await this.repository.deleteIfDisabled(id))) throw conflict("The integration was enabled meanwhile; not deleted");
    await this.files.remove(id);
    await this.audit.record(actor, {
      action: "integration.uninstalled",
      serverId: row.server_id,
      target: id,
      detail: { catalogId: row.catalog_id, appserviceId: row.appservice_id },
    });
  }

  async listSecrets(id: string): Promise<SecretRecord[]> {
    await this.require(id);
    return (await this.repository.listSecrets(id)).map(toSecretRecord);
  }

  /**
   * Sets a secret the entry knows (400 for other keys); the same key again replaces (rotates) it. The value is
   * sealed; the files are regenerated with it. A new `as_token` must be unique on the server (409).
   */
  async setSecret(id: string, input: { key: string; value: string }, actor: AuditActor) {
    const { row, server, entry } = await this.require(id);
    const spec = entry.secrets.find((candidate) => candidate.key === input.key);
    if (!spec) {
      const known = entry.secrets.map((candidate) => candidate.key);
      throw badRequest(`${entry.name} has no secret ${input.key}${known.length ? `; its secrets are ${known.join(", ")}` : ""}`);
    }
    checkSecretValue(spec, input.value);
    const nowIso = this.isoNow();
    const secretRow: SecretRow = {
      id: randomUUID(),
      integration_id: id,
      key: spec.key,
      value_enc: this.box.seal(input.value, integrationSecretContext(id, spec.key)),
      generated: 0,
      created_at: nowIso,
      rotated_at: null,
    };
    const result = await this.repository
      .upsertSecret(secretRow, spec.key === "as_token" ? sha256(input.value) : undefined)
      .catch((error) => {
        if (uniqueViolation(error) === "as_token_hash")
          throw conflict("Another integration on this server already uses this as_token");
        throw error;
      });
    await this.materialize(row, server, entry);
    await this.audit.record(actor, {
      action: "integration.secret.rotated",
      serverId: row.server_id,
      target: id,
      detail: { key: spec.key, rotated: result.rotated },
    });
    return { secret: toSecretRecord(result.secret), rotated: result.rotated };
  }

  /** Deletes a secret (the appservice tokens cannot be deleted: 409, rotate them); files are regenerated. */
  async deleteSecret(id: string, secretId: string, actor: AuditActor): Promise<void> {
    const { row, server, entry } = await this.require(id);
    const secrets = await this.repository.listSecrets(id);
    const target = secrets.find((secret) => secret.id === secretId);
    if (!target) throw notFound(`No secret ${secretId} for this integration`);
    if (entry.secrets.find((spec) => spec.key === target.key)?.permanent) {
      throw conflict(`${target.key} cannot be deleted (the registration needs it); set a new value to rotate it`);
    }
    await this.repository.deleteSecret(id, secretId);
    await this.materialize(row, server, entry);
    await this.audit.record(actor, {
      action: "integration.secret.deleted",
      serverId: row.server_id,
      target: id,
      detail: { key: target.key },
    });
  }

  /** The system-wide diagnostics of a server's integrations and bots; runs the checks now, stores nothing. */
  async diagnostics(serverId: string): Promise<IntegrationDiagnostics> {
    const server = await this.servers.requireRow(serverId);
    const rows = await this.repository.listForServer(serverId);
    const [capabilities, homeserverConnectivity, filesystemWritable, botHealth] = await Promise.all([
      this.capabilities(),
      this.homeserverReachable(server),
      this.files.writable(),
      this.bots.health(serverId),
    ]);
    const checks = await Promise.all(
      rows.map(async (row) => {
        const entry = findEntry(row.catalog_id);
        return { row, entry, health: entry ? await this.check(row, server, entry) : undefined };
      }),
    );
    const errors: string[] = [];
    if (!homeserverConnectivity) errors.push(`The homeserver at ${server.internal_url} cannot be reached`);
    if (!filesystemWritable) errors.push(`Integration files cannot be written under ${this.files.root}`);
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
      const present = new Set((await this.repository.listSecrets(row.id)).map((secret) => secret.key));
      for (const spec of applicableSecrets(entry, parseJson(row.config, {})).filter((candidate) => candidate.required)) {
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

  // ---------------------------------------------------------------------------------------------------------------

  private chooseMode(
    entry: CatalogEntry,
    server: ServerRow,
    caps: DeploymentCapabilities,
  ): { mode: DeploymentMode; reason: string } {
    if (!entry.deploymentModes.includes("managed"))
      return { mode: "guided", reason: `${entry.name} is installed by hand (guided only)` };
    if (server.managed_mode === "guided") return { mode: "guided", reason: "the server's managedMode is guided" };
    if (canManage(caps)) return { mode: "managed", reason: "Docker (socket, CLI and Compose) is available" };
    const missing = [
      ...(caps.dockerSocket ? [] : ["the Docker socket"]),
      ...(caps.dockerCli ? [] : ["the docker CLI"]),
      ...(caps.dockerCompose ? [] : ["Docker Compose"]),
    ];
    return { mode: "guided", reason: `${missing.join(", ")} not available to the portal` };
  }

  /** Generates (and seals) the applicable secrets of `config` that `present` lacks. */
  private async generateMissing(
    integrationId: string,
    entry: CatalogEntry,
    config: Record<string, unknown>,
    present: ReadonlySet<string>,
    nowIso: string,
  ): Promise<{ rows: SecretRow[]; plain: Map<string, string> }> {
    const rows: SecretRow[] = [];
    const plain = new Map<string, string>();
    for (const spec of applicableSecrets(entry, config)) {
      if (!spec.generate || present.has(spec.key)) continue;
      const value = await generateSecret(spec.generate);
      plain.set(spec.key, value);
      rows.push({
        id: randomUUID(),
        integration_id: integrationId,
        key: spec.key,
        value_enc: this.box.seal(value, integrationSecretContext(integrationId, spec.key)),
        generated: 1,
        created_at: nowIso,
        rotated_at: null,
      });
    }
    return { rows, plain };
  }

  /** The decrypted secrets of an integration (500 SECRET_UNREADABLE when the key changed). */
  private async openSecrets(integrationId: string): Promise<Map<string, string>> {
    const plain = new Map<string, string>();
    for (const secret of await this.repository.listSecrets(integrationId)) {
      try {
        plain.set(secret.key, this.box.open(secret.value_enc, integrationSecretContext(integrationId, secret.key)));
      } catch (error) {
        if (!(error instanceof SecretBoxError)) throw error;
        throw new HttpError(
          500,
          `The stored secret ${secret.key} cannot be decrypted: the portal's secret key changed. Restore the key, or set the secret again.`,
          "SECRET_UNREADABLE",
        );
      }
    }
    return plain;
  }

  private context(row: IntegrationRow, server: ServerRow, secret: (key: string) => string | undefined): GenerationContext {
    return {
      integrationId: row.id,
      serverName: server.server_name,
      homeserverInternalUrl: server.internal_url,
      homeserverPublicUrl: server.public_url,
      config: { ...parseJson<Record<string, unknown>>(row.config, {}) },
      secret,
      mode: row.deployment_mode as DeploymentMode,
      appserviceId: row.appservice_id,
      senderLocalpart: row.sender_localpart,
      version: row.config_version,
      filesDir: this.files.dirOf(row.id),
    };
  }

  /**
   * Generates and writes the files with the real secrets. Before writing, every file not marked as holding
   * secrets is checked to contain none of them (a generator bug must not put a token into a 0644 file).
   */
  private async materialize(
    row: IntegrationRow,
    server: ServerRow,
    entry: CatalogEntry,
    known?: Map<string, string>,
  ): Promise<void> {
    const secrets = known ?? (await this.openSecrets(row.id));
    const generated = entry.generate(this.context(row, server, (key) => secrets.get(key)));
    const values = [...secrets.values()].filter((value) => value.length >= 8);
    for (const file of generated) {
      if (!file.containsSecrets && values.some((value) => file.content.includes(value))) {
        throw new Error(`generator bug: ${entry.id}/${file.name} is not marked as holding secrets but contains one`);
      }
    }
    const manifest = await this.files.write(row.id, generated, parseJson<FileManifestEntry[]>(row.files, []));
    await this.repository.update(row.id, { files: JSON.stringify(manifest), updated_at: this.isoNow() });
    row.files = JSON.stringify(manifest);
  }

  /** The files as the API shows them: the same generators with placeholders (`<secret:key>`) for secret values. */
  private redactedFiles(
    row: IntegrationRow,
    server: ServerRow,
    entry: CatalogEntry,
    present: ReadonlySet<string>,
  ): GeneratedFile[] {
    return entry.generate(this.context(row, server, (key) => (present.has(key) ? `<secret:${key}>` : undefined)));
  }

  private async detail(row: IntegrationRow, server: ServerRow, entry: CatalogEntry | undefined) {
    const [secrets, snapshots] = await Promise.all([this.repository.listSecrets(row.id), this.repository.listSnapshots(row.id)]);
    const present = new Set(secrets.map((secret) => secret.key));
    const config = parseJson<Record<string, unknown>>(row.config, {});
    const rendered = entry ? this.redactedFiles(row, server, entry, present) : [];
    const dir = this.files.dirOf(row.id);
    return {
      ...this.toRecord(row, server),
      config,
      secretKeys: secrets.map((secret) => secret.key),
      missingSecrets: entry
        ? applicableSecrets(entry, config)
            .filter((spec) => spec.required && !present.has(spec.key))
            .map((spec) => spec.key)
        : [],
      files: parseJson<FileManifestEntry[]>(row.files, []).map((file) => ({
        ...file,
        path: `${dir}/${file.name}`,
        redacted: file.containsSecrets,
        content: rendered.find((candidate) => candidate.name === file.name)?.content ?? null,
      })),
      snapshots: snapshots.map((snapshot) => ({
        version: snapshot.version,
        reason: snapshot.reason,
        actor: snapshot.actor,
        config: parseJson(snapshot.config, {}),
        createdAt: snapshot.created_at,
      })),
      health: parseJson<IntegrationHealth | null>(row.last_health, null),
      catalog: entry ? { id: entry.id, name: entry.name, docsUrl: entry.docsUrl, homepage: entry.homepage } : null,
    };
  }

  /**
   * The health check: homeserver reachable (`/_matrix/client/versions`), the appservice registration loaded (whoami
   * with the `as_token` answers its sender; also for the double-puppet registration), the generated files present,
   * unchanged and writable, and the required secrets set.
   */
  private async check(row: IntegrationRow, server: ServerRow, entry: CatalogEntry): Promise<IntegrationHealth> {
    const config = parseJson<Record<string, unknown>>(row.config, {});
    const errors: string[] = [];
    let secrets = new Map<string, string>();
    try {
      secrets = await this.openSecrets(row.id);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      errors.push(error.message);
    }
    const asCheck = async (id: string, token: string | undefined, sender: string): Promise<AppserviceCheck> => {
      const expectedUserId = `@${sender}:${server.server_name}`;
      if (token === undefined)
        return { id, expectedUserId, registered: false, userId: null, reason: "the as_token is not available" };
      const outcome = await whoami(this.connector.tokenClient(server, token, PROBE_TIMEOUT_MS));
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
        return {
          id,
          expectedUserId,
          registered: false,
          userId: null,
          reason: `${outcome.errcode}: the homeserver does not know this as_token; add the registration to app_service_config_files and restart the homeserver`,
        };
      }
      return {
        id,
        expectedUserId,
        registered: null,
        userId: null,
        reason: `the homeserver could not be asked (${outcome.reason})`,
      };
    };
    const [homeserverReachable, files, appservice, doublePuppet] = await Promise.all([
      this.homeserverReachable(server),
      this.files.check(row.id, parseJson<FileManifestEntry[]>(row.files, [])),
      row.appservice_id && row.sender_localpart
        ? asCheck(row.appservice_id, secrets.get("as_token"), row.sender_localpart)
        : Promise.resolve(null),
      row.appservice_id && row.sender_localpart && config.doublePuppet === true
        ? asCheck(`${row.appservice_id}-doublepuppet`, secrets.get("double_puppet_as_token"), `${row.sender_localpart}dp`)
        : Promise.resolve(null),
    ]);
    const present = new Set((await this.repository.listSecrets(row.id)).map((secret) => secret.key));
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

  private async homeserverReachable(server: ServerRow): Promise<boolean> {
    try {
      const response = await this.connector.publicClient(server, PROBE_TIMEOUT_MS).call("GET", "/_matrix/client/versions");
      return response.status === 200 && Array.isArray(response.body.versions);
    } catch (error) {
      if (error instanceof HomeserverUnreachable) return false;
      throw error;
    }
  }

  private async require(id: string, serverId?: string): Promise<{ row: IntegrationRow; server: ServerRow; entry: CatalogEntry }> {
    const row = await this.repository.find(id);
    if (!row || (serverId !== undefined && row.server_id !== serverId)) throw notFound(`No integration with id ${id}`);
    const entry = findEntry(row.catalog_id);
    if (!entry) {
      this.log.error({ integrationId: id, catalogId: row.catalog_id }, "integration of an unknown catalog entry");
      throw new HttpError(500, `The catalog entry ${row.catalog_id} of this integration no longer exists`, "INTERNAL_ERROR");
    }
    return { row, server: await this.servers.requireRow(row.server_id), entry };
  }

  private toRecord(row: IntegrationRow, server: ServerRow): IntegrationRecord {
    const health = parseJson<IntegrationHealth | null>(row.last_health, null);
    return {
      id: row.id,
      serverId: row.server_id,
      catalogId: row.catalog_id,
      name: row.name,
      type: row.type,
      deploymentMode: row.deployment_mode,
      status: row.status,
      enabled: row.enabled === 1,
      version: String(row.config_version),
      configVersion: row.config_version,
      appserviceId: row.appservice_id,
      appserviceUserId: row.sender_localpart ? `@${row.sender_localpart}:${server.server_name}` : null,
      filesDir: this.files.dirOf(row.id),
      healthy: health?.healthy ?? null,
      lastHealthAt: row.last_health_at,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  private isoNow(): string {
    return new Date(this.now()).toISOString();
  }
}

function toSecretRecord(row: SecretRow): SecretRecord {
  return { id: row.id, key: row.key, generated: row.generated === 1, rotatedAt: row.rotated_at, createdAt: row.created_at };
}

/**
 * What a secret value may contain, by where it goes: a PEM key may span lines; appservice tokens are bearer tokens
 * (visible ASCII, 16-512); everything else is one line without control characters, and values that travel through
 * secrets.env must not contain a single quote (the file quotes with them).
 */
function checkSecretValue(spec: SecretSpec, value: string): void {
  if (value.length === 0 || value.length > 20_000) throw badRequest("value must be 1-20000 characters");
  if (spec.generate === "rsa4096") {
    if (!/^-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]+-----END [A-Z ]*PRIVATE KEY-----\s*$/.test(value)) {
      throw badRequest(`${spec.key} must be a PEM private key`);
    }
    return;
  }
  if (spec.key === "as_token" || spec.key === "hs_token" || spec.key.endsWith("_as_token") || spec.key.endsWith("_hs_token")) {
    if (!/^[\x21-\x7e]{16,512}$/.test(value)) throw badRequest(`${spec.key} must be 16-512 visible ASCII characters`);
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(value)) throw badRequest("value must be a single line without control characters");
  if (spec.env !== undefined && value.includes("'")) throw badRequest(`${spec.key} must not contain a single quote (')`);
}
