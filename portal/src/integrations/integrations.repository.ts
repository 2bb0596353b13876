import { type Kysely, type Selectable, sql, type Updateable } from "kysely";
import { lockedTransaction } from "../db/dialect.ts";
import type { Database, IntegrationSecretsTable, IntegrationSnapshotsTable, IntegrationsTable } from "../db/schema.ts";

export type IntegrationRow = Selectable<IntegrationsTable>;
export type SecretRow = Selectable<IntegrationSecretsTable>;
export type SnapshotRow = Selectable<IntegrationSnapshotsTable>;

/** A JSON column's value (config, files, last_health, snapshot config); `fallback` when empty or unreadable. */
export function parseColumn<T>(json: string | null, fallback: T): T {
  try {
    return json === null ? fallback : (JSON.parse(json) as T);
  } catch {
    return fallback;
  }
}

/** Integrations, their sealed secrets and configuration snapshots. */
export class IntegrationsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  listForServer(serverId: string): Promise<IntegrationRow[]> {
    return this.db
      .selectFrom("integrations")
      .selectAll()
      .where("server_id", "=", serverId)
      .orderBy("created_at", "asc")
      .orderBy(sql`rowid`, "asc")
      .execute();
  }

  async allIds(): Promise<Set<string>> {
    const rows = await this.db.selectFrom("integrations").select("id").execute();
    return new Set(rows.map((row) => row.id));
  }

  find(id: string): Promise<IntegrationRow | undefined> {
    return this.db.selectFrom("integrations").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /** Inserts an integration with its first snapshot and its generated secrets in one transaction. */
  async insert(row: IntegrationRow, snapshot: Omit<SnapshotRow, "id">, secrets: SecretRow[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto("integrations").values(row).execute();
      await trx.insertInto("integration_snapshots").values(snapshot).execute();
      if (secrets.length > 0) await trx.insertInto("integration_secrets").values(secrets).execute();
    });
  }

  async update(id: string, changes: Omit<Updateable<IntegrationsTable>, "id" | "server_id">): Promise<void> {
    await this.db.updateTable("integrations").set(changes).where("id", "=", id).execute();
  }

  /**
   * A configuration change: the new configuration, its snapshot and any secrets it now needs, together, made only
   * if the stored version is still `fromVersion` (the one the change was computed from). False when another change
   * landed first: the caller computes again from the new version instead of overwriting it.
   */
  async updateConfig(
    id: string,
    fromVersion: number,
    changes: Pick<IntegrationRow, "config" | "config_version" | "updated_at">,
    snapshot: Omit<SnapshotRow, "id">,
    secrets: SecretRow[],
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable("integrations")
        .set(changes)
        .where("id", "=", id)
        .where("config_version", "=", fromVersion)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return false;
      await trx.insertInto("integration_snapshots").values(snapshot).execute();
      if (secrets.length > 0) {
        // A secret another change added meanwhile stays as it is.
        await trx
          .insertInto("integration_secrets")
          .values(secrets)
          .onConflict((oc) => oc.columns(["integration_id", "key"]).doNothing())
          .execute();
      }
      return true;
    });
  }

  /** Deletes an integration only while it is disabled (one statement); secrets and snapshots cascade. */
  async deleteIfDisabled(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom("integrations").where("id", "=", id).where("enabled", "=", 0).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  listSecrets(integrationId: string): Promise<SecretRow[]> {
    return this.db
      .selectFrom("integration_secrets")
      .selectAll()
      .where("integration_id", "=", integrationId)
      .orderBy("created_at", "asc")
      .orderBy(sql`rowid`, "asc")
      .execute();
  }

  /**
   * Sets a secret: a new row, or the same key's row with the new sealed value (rotation). With `asTokenHash` the
   * integration's `as_token` fingerprint changes in the same transaction (a duplicate on the server fails it).
   */
  async upsertSecret(row: SecretRow, asTokenHash?: string): Promise<{ secret: SecretRow; rotated: boolean }> {
    // Locked per integration: two first settings of one key would both insert (one failing on the unique key).
    return lockedTransaction(this.db, `integration:${row.integration_id}`, async (trx) => {
      if (asTokenHash !== undefined) {
        await trx.updateTable("integrations").set({ as_token_hash: asTokenHash }).where("id", "=", row.integration_id).execute();
      }
      const existing = await trx
        .selectFrom("integration_secrets")
        .selectAll()
        .where("integration_id", "=", row.integration_id)
        .where("key", "=", row.key)
        .executeTakeFirst();
      if (existing) {
        await trx
          .updateTable("integration_secrets")
          .set({ value_enc: row.value_enc, generated: row.generated, rotated_at: row.created_at })
          .where("id", "=", existing.id)
          .execute();
        return {
          secret: { ...existing, value_enc: row.value_enc, generated: row.generated, rotated_at: row.created_at },
          rotated: true,
        };
      }
      await trx.insertInto("integration_secrets").values(row).execute();
      return { secret: row, rotated: false };
    });
  }

  /** Deletes a secret and returns it; of two concurrent deletions only one gets the row. */
  deleteSecret(integrationId: string, secretId: string): Promise<SecretRow | undefined> {
    return this.db
      .deleteFrom("integration_secrets")
      .where("id", "=", secretId)
      .where("integration_id", "=", integrationId)
      .returningAll()
      .executeTakeFirst();
  }

  listSnapshots(integrationId: string): Promise<SnapshotRow[]> {
    return this.db
      .selectFrom("integration_snapshots")
      .selectAll()
      .where("integration_id", "=", integrationId)
      .orderBy("version", "asc")
      .execute();
  }
}
