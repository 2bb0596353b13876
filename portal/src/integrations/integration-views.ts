import type { ServerRow } from "../servers/servers.repository.ts";
import type { CatalogEntry, DeploymentMode, GeneratedFile, GenerationContext } from "./catalog/types.ts";
import type { FileManifestEntry, IntegrationFiles } from "./integration-files.ts";
import type { IntegrationHealth } from "./integration-health.ts";
import { applicableSecrets } from "./integration-secrets.ts";
import { type IntegrationRow, type IntegrationsRepository, parseColumn } from "./integrations.repository.ts";

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

/** How the API shows an integration (a list row, the detail with redacted files) and what its generators are given. */
export class IntegrationViews {
  constructor(
    private readonly repository: IntegrationsRepository,
    private readonly files: IntegrationFiles,
  ) {}

  /** What the entry's generators get: the server, the configuration and `secret(key)` (real or placeholder). */
  generationContext(row: IntegrationRow, server: ServerRow, secret: (key: string) => string | undefined): GenerationContext {
    return {
      integrationId: row.id,
      serverName: server.server_name,
      homeserverInternalUrl: server.internal_url,
      homeserverPublicUrl: server.public_url,
      config: { ...parseColumn<Record<string, unknown>>(row.config, {}) },
      secret,
      mode: row.deployment_mode as DeploymentMode,
      appserviceId: row.appservice_id,
      senderLocalpart: row.sender_localpart,
      version: row.config_version,
      filesDir: this.files.dirOf(row.id),
    };
  }

  /** The files as the API shows them: the same generators with placeholders (`<secret:key>`) for secret values. */
  private redactedFiles(
    row: IntegrationRow,
    server: ServerRow,
    entry: CatalogEntry,
    present: ReadonlySet<string>,
  ): GeneratedFile[] {
    return entry.generate(this.generationContext(row, server, (key) => (present.has(key) ? `<secret:${key}>` : undefined)));
  }

  /** The detail: the record, configuration, secret keys (never values), files with secrets redacted, snapshots. */
  async detail(row: IntegrationRow, server: ServerRow, entry: CatalogEntry | undefined) {
    const [secrets, snapshots] = await Promise.all([this.repository.listSecrets(row.id), this.repository.listSnapshots(row.id)]);
    const present = new Set(secrets.map((secret) => secret.key));
    const config = parseColumn<Record<string, unknown>>(row.config, {});
    const rendered = entry ? this.redactedFiles(row, server, entry, present) : [];
    const dir = this.files.dirOf(row.id);
    return {
      ...this.record(row, server),
      config,
      secretKeys: secrets.map((secret) => secret.key),
      missingSecrets: entry
        ? applicableSecrets(entry, config)
            .filter((spec) => spec.required && !present.has(spec.key))
            .map((spec) => spec.key)
        : [],
      files: parseColumn<FileManifestEntry[]>(row.files, []).map((file) => ({
        ...file,
        path: `${dir}/${file.name}`,
        redacted: file.containsSecrets,
        content: rendered.find((candidate) => candidate.name === file.name)?.content ?? null,
      })),
      snapshots: snapshots.map((snapshot) => ({
        version: snapshot.version,
        reason: snapshot.reason,
        actor: snapshot.actor,
        config: parseColumn(snapshot.config, {}),
        createdAt: snapshot.created_at,
      })),
      health: parseColumn<IntegrationHealth | null>(row.last_health, null),
      catalog: entry ? { id: entry.id, name: entry.name, docsUrl: entry.docsUrl, homepage: entry.homepage } : null,
    };
  }

  record(row: IntegrationRow, server: ServerRow): IntegrationRecord {
    const health = parseColumn<IntegrationHealth | null>(row.last_health, null);
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
}
