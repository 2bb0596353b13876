import { createHash, randomInt, randomUUID } from "node:crypto";
import { badRequest, conflict, HttpError, notFound } from "../../../lib/http-error.ts";
import type { Logger } from "../../../lib/logger.ts";
import type { AuditActor, AuditService } from "../audit/audit.service.ts";
import type { BotsService } from "../bots/bots.service.ts";
import type { SecretBox } from "../crypto/secret-box.ts";
import { uniqueViolation } from "../db/constraints.ts";
import type { HomeserverConnector } from "../homeserver/connector.ts";
import type { ServerRow } from "../servers/servers.repository.ts";
import type { ServersService } from "../servers/servers.service.ts";
import { findEntry, searchCatalog } from "./catalog/index.ts";
import { type CatalogEntry, type DeploymentMode, type IntegrationType, publicEntry } from "./catalog/types.ts";
import { applyConfigChange, defaultConfig } from "./config-schema.ts";
import { type CapabilityProbe, canManage, type DeploymentCapabilities } from "./deployment-environment.ts";
import type { FileManifestEntry, IntegrationFiles } from "./integration-files.ts";
import { type IntegrationDiagnostics, IntegrationHealthChecks } from "./integration-health.ts";
import {
  checkSecretValue,
  findSecretSpec,
  IntegrationSecrets,
  type SecretRecord,
  toSecretRecord,
} from "./integration-secrets.ts";
import { type IntegrationRecord, IntegrationViews } from "./integration-views.ts";
import { type IntegrationRow, type IntegrationsRepository, parseColumn } from "./integrations.repository.ts";

/** Tries of a configuration change that keeps losing the race to other changes of the same integration. */
const CONFIG_ATTEMPTS = 5;

const SENDER_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * Integrations of a managed server: the catalog, installation (deployment mode from the environment), generated
 * files (appservice registration, the service's configuration, compose project or instructions), configuration
 * snapshots, sealed secrets, enable/disable, health checks and the system-wide diagnostics.
 */
export class IntegrationsService {
  private readonly secrets: IntegrationSecrets;
  private readonly health: IntegrationHealthChecks;
  private readonly views: IntegrationViews;

  constructor(
    private readonly repository: IntegrationsRepository,
    private readonly servers: ServersService,
    box: SecretBox,
    connector: HomeserverConnector,
    private readonly files: IntegrationFiles,
    private readonly capabilities: CapabilityProbe,
    bots: BotsService,
    private readonly audit: AuditService,
    private readonly now: () => number,
    private readonly log: Logger,
  ) {
    this.secrets = new IntegrationSecrets(box, repository);
    this.views = new IntegrationViews(repository, files);
    this.health = new IntegrationHealthChecks({ repository, connector, files, capabilities, bots, secrets: this.secrets, now });
  }

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
    return (await this.repository.listForServer(serverId)).map((row) => this.views.record(row, server));
  }

  async get(id: string, serverId?: string) {
    const { row, server, entry } = await this.require(id, serverId);
    return this.views.detail(row, server, entry);
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
    const secrets = await this.secrets.generateMissing(id, entry, config, new Set(), nowIso);
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
    return { integration: await this.views.detail(installed, server, entry), deployment: { ...deployment, capabilities } };
  }

  /** A configuration change: validated against the entry, snapshotted as the next version, files regenerated. */
  async updateConfig(id: string, change: Record<string, unknown>, actor: AuditActor) {
    // Computed from the stored configuration and written only if it is still the one read (compare-and-set on the
    // version): a change that lost the race to another is applied again on top of it, never written over it.
    for (let attempt = 1; ; attempt++) {
      const { row, server, entry } = await this.require(id);
      const current = parseColumn<Record<string, unknown>>(row.config, {});
      const { config, fields } = applyConfigChange(entry, current, change);
      if (fields.length === 0) throw badRequest("config names no setting to change");
      const nowIso = this.isoNow();
      const existing = await this.repository.listSecrets(id);
      const added = await this.secrets.generateMissing(id, entry, config, new Set(existing.map((secret) => secret.key)), nowIso);
      const version = row.config_version + 1;
      const written = await this.repository.updateConfig(
        id,
        row.config_version,
        { config: JSON.stringify(config), config_version: version, updated_at: nowIso },
        { integration_id: id, version, config: JSON.stringify(config), reason: "update", actor: actor.email, created_at: nowIso },
        added.rows,
      );
      if (written) return this.afterConfigUpdate(id, row, server, entry, version, fields, actor);
      if (attempt === CONFIG_ATTEMPTS) throw conflict("The configuration keeps changing meanwhile; try again");
    }
  }

  private async afterConfigUpdate(
    id: string,
    row: IntegrationRow,
    server: ServerRow,
    entry: CatalogEntry,
    version: number,
    fields: string[],
    actor: AuditActor,
  ) {
    const updated = (await this.repository.find(id)) as IntegrationRow;
    await this.materialize(updated, server, entry);
    await this.audit.record(actor, {
      action: "integration.updated",
      serverId: row.server_id,
      target: id,
      detail: { version, fields },
    });
    return this.views.detail((await this.repository.find(id)) as IntegrationRow, server, entry);
  }

  async act(id: string, action: "enable" | "disable" | "health_check", actor: AuditActor) {
    const { row, server, entry } = await this.require(id);
    const nowIso = this.isoNow();
    if (action === "health_check") {
      const health = await this.health.check(row, server, entry);
      await this.repository.update(id, { last_health: JSON.stringify(health), last_health_at: health.checkedAt });
      return { integration: this.views.record((await this.repository.find(id)) as IntegrationRow, server), health };
    }
    const enable = action === "enable";
    await this.repository.update(id, { enabled: enable ? 1 : 0, status: enable ? "active" : "inactive", updated_at: nowIso });
    await this.audit.record(actor, {
      action: enable ? "integration.enabled" : "integration.disabled",
      serverId: row.server_id,
      target: id,
    });
    return { integration: this.views.record((await this.repository.find(id)) as IntegrationRow, server) };
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
   * Sets a secret; the same key again replaces (rotates) it. A key the entry knows (or its environment-style name)
   * sets that input and the files are regenerated with it; any other key is the admin's own secret, kept sealed
   * but used by no generated file (the spec's `key` is any string). A new `as_token` must be unique on the server (409).
   */
  async setSecret(id: string, input: { key: string; value: string }, actor: AuditActor) {
    const { row, server, entry } = await this.require(id);
    const spec = findSecretSpec(entry, input.key);
    const key = spec?.key ?? input.key;
    checkSecretValue(spec, input.value);
    const nowIso = this.isoNow();
    const secretRow = this.secrets.sealedRow(id, key, input.value, false, nowIso);
    const result = await this.repository
      .upsertSecret(secretRow, key === "as_token" ? sha256(input.value) : undefined)
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
      detail: { key, rotated: result.rotated },
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
    return this.health.diagnostics(server, await this.repository.listForServer(serverId));
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
    const secrets = known ?? (await this.secrets.open(row.id));
    const generated = entry.generate(this.views.generationContext(row, server, (key) => secrets.get(key)));
    // Only the entry's own secrets can reach a file; an admin's own secret may well equal some harmless text.
    const values = entry.secrets
      .map((spec) => secrets.get(spec.key))
      .filter((value): value is string => value !== undefined && value.length >= 8);
    for (const file of generated) {
      if (!file.containsSecrets && values.some((value) => file.content.includes(value))) {
        throw new Error(`generator bug: ${entry.id}/${file.name} is not marked as holding secrets but contains one`);
      }
    }
    const manifest = await this.files.write(row.id, generated, parseColumn<FileManifestEntry[]>(row.files, []));
    await this.repository.update(row.id, { files: JSON.stringify(manifest), updated_at: this.isoNow() });
    row.files = JSON.stringify(manifest);
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

  private isoNow(): string {
    return new Date(this.now()).toISOString();
  }
}
