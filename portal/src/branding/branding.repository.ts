import { type Kysely, type Selectable, sql } from "kysely";
import { forUpdate, lockedTransaction } from "../db/dialect.ts";
import type { BrandingAssetsTable, BrandingProfilesTable, Database } from "../db/schema.ts";
import { GENERATIONS, WriteGeneration } from "../db/write-generation.ts";

export type ProfileRow = Selectable<BrandingProfilesTable>;
export type AssetRow = Selectable<BrandingAssetsTable>;

/**
 * Branding profiles and assets. Activation and asset replacement run in transactions. Writers that read before they
 * write hold a lock (dialect.ts): `branding.active` for the one active profile, `branding.profile:<id>` for a
 * profile's assets (one per purpose, and the files to remove must be exactly the records removed); on SQLite the
 * transaction alone excludes everyone else, on PostgreSQL other connections and instances wait for the lock.
 */
export class BrandingRepository {
  constructor(
    private readonly db: Kysely<Database>,
    /** Writes to the servers table, shared with the servers repository (which keeps rows in memory). */
    private readonly serverWrites = new WriteGeneration(db, GENERATIONS.servers),
  ) {}

  listProfiles(): Promise<ProfileRow[]> {
    return this.db.selectFrom("branding_profiles").selectAll().orderBy("created_at", "asc").orderBy(sql`rowid`, "asc").execute();
  }

  findProfile(id: string): Promise<ProfileRow | undefined> {
    return this.db.selectFrom("branding_profiles").selectAll().where("id", "=", id).executeTakeFirst();
  }

  findActive(): Promise<ProfileRow | undefined> {
    return this.db.selectFrom("branding_profiles").selectAll().where("is_active", "=", 1).executeTakeFirst();
  }

  async insertProfile(row: ProfileRow): Promise<void> {
    await this.db.insertInto("branding_profiles").values(row).execute();
  }

  /**
   * Changes a profile from what it holds now: `change` gets the row, locked until the update (PostgreSQL: FOR
   * UPDATE), so two edits of different fields both land instead of the later one writing back a stale copy.
   * Undefined when there is no such profile.
   */
  updateProfileFrom(
    id: string,
    change: (row: ProfileRow) => Partial<Pick<ProfileRow, "name" | "settings" | "is_draft" | "updated_at">>,
  ): Promise<ProfileRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const row = await forUpdate(
        this.db,
        trx.selectFrom("branding_profiles").selectAll().where("id", "=", id),
      ).executeTakeFirst();
      if (!row) return undefined;
      await trx.updateTable("branding_profiles").set(change(row)).where("id", "=", id).execute();
      return row;
    });
  }

  /** Makes `id` the one active profile: its settings become the published copy and its version goes up by one. */
  publish(id: string, nowIso: string): Promise<string | undefined> {
    return lockedTransaction(this.db, "branding.active", async (trx) => {
      const previous = await trx.selectFrom("branding_profiles").select("id").where("is_active", "=", 1).executeTakeFirst();
      await trx.updateTable("branding_profiles").set({ is_active: 0 }).where("is_active", "=", 1).where("id", "!=", id).execute();
      await trx
        .updateTable("branding_profiles")
        .set({
          is_active: 1,
          is_draft: 0,
          version: sql`version + 1`,
          published_settings: sql`settings`,
          published_at: nowIso,
          updated_at: nowIso,
        })
        .where("id", "=", id)
        .execute();
      return previous?.id;
    });
  }

  /** Clears every customisation and every asset record; returns the storage names of the removed assets. */
  reset(id: string, nowIso: string): Promise<string[]> {
    return lockedTransaction(this.db, profileLock(id), async (trx) => {
      const assets = await trx.deleteFrom("branding_assets").where("profile_id", "=", id).returning("storage_name").execute();
      await trx
        .updateTable("branding_profiles")
        .set({ settings: "{}", is_draft: 1, updated_at: nowIso })
        .where("id", "=", id)
        .execute();
      return assets.map((asset) => asset.storage_name);
    });
  }

  /**
   * Deletes a profile with its asset records (cascade) and unlinks servers that pointed at it. Returns the storage
   * names of its assets, or undefined when there was no such profile.
   */
  deleteProfile(id: string, nowIso: string): Promise<{ files: string[]; unlinkedServers: number } | undefined> {
    // It writes the servers table: the servers repository's kept rows must see that (shared write count).
    return this.serverWrites.around(async (trx) => {
      const assets = await trx.selectFrom("branding_assets").select("storage_name").where("profile_id", "=", id).execute();
      const unlinked = await trx
        .updateTable("servers")
        .set({ branding_profile_id: null, updated_at: nowIso })
        .where("branding_profile_id", "=", id)
        .executeTakeFirst();
      const deleted = await trx.deleteFrom("branding_profiles").where("id", "=", id).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) return undefined;
      return { files: assets.map((asset) => asset.storage_name), unlinkedServers: Number(unlinked.numUpdatedRows) };
    }, profileLock(id));
  }

  listAssets(profileIds: readonly string[]): Promise<AssetRow[]> {
    if (profileIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom("branding_assets")
      .selectAll()
      .where("profile_id", "in", profileIds)
      .orderBy("created_at", "asc")
      .orderBy(sql`rowid`, "asc")
      .execute();
  }

  findAsset(id: string): Promise<AssetRow | undefined> {
    return this.db.selectFrom("branding_assets").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /**
   * Stores a new asset and its bytes, removing the record (and bytes) of the profile's previous asset with the same
   * purpose in the same transaction (one per purpose). Returns the previous record, whose file (written by a portal
   * before migration 0013, if any is left) the caller removes after the commit. Undefined profile → false.
   */
  replaceAsset(row: AssetRow, bytes: Uint8Array): Promise<{ replaced: AssetRow | undefined } | false> {
    return lockedTransaction(this.db, profileLock(row.profile_id), async (trx) => {
      const profile = await trx.selectFrom("branding_profiles").select("id").where("id", "=", row.profile_id).executeTakeFirst();
      if (!profile) return false;
      const replaced = await trx
        .selectFrom("branding_assets")
        .selectAll()
        .where("profile_id", "=", row.profile_id)
        .where("purpose", "=", row.purpose)
        .executeTakeFirst();
      if (replaced) await trx.deleteFrom("branding_assets").where("id", "=", replaced.id).execute();
      await trx.insertInto("branding_assets").values(row).execute();
      // The bytes with the record, in one transaction: no record without its image, on any instance.
      await trx
        .insertInto("branding_asset_content")
        .values({ asset_id: row.id, content: Buffer.from(bytes).toString("base64") })
        .execute();
      await trx.updateTable("branding_profiles").set({ updated_at: row.created_at }).where("id", "=", row.profile_id).execute();
      return { replaced };
    });
  }

  /** The bytes of an asset, undefined when none are stored (an older portal's file not moved in yet). */
  async assetContent(id: string): Promise<Buffer | undefined> {
    const row = await this.db
      .selectFrom("branding_asset_content")
      .select("content")
      .where("asset_id", "=", id)
      .executeTakeFirst();
    return row && Buffer.from(row.content, "base64");
  }

  /** Assets whose bytes are not in the database yet (stored as files by a portal before migration 0013). */
  assetsWithoutContent(): Promise<AssetRow[]> {
    return this.db
      .selectFrom("branding_assets")
      .selectAll("branding_assets")
      .leftJoin("branding_asset_content", "branding_asset_content.asset_id", "branding_assets.id")
      .where("branding_asset_content.asset_id", "is", null)
      .execute();
  }

  /** Stores the bytes of an asset moved in from its file; false when they are there already (another instance). */
  async addAssetContent(id: string, bytes: Uint8Array): Promise<boolean> {
    const result = await this.db
      .insertInto("branding_asset_content")
      .values({ asset_id: id, content: Buffer.from(bytes).toString("base64") })
      .onConflict((oc) => oc.column("asset_id").doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Deletes an asset record and returns it; of two concurrent deletions only one gets the row. */
  deleteAsset(profileId: string, assetId: string): Promise<AssetRow | undefined> {
    return this.db
      .deleteFrom("branding_assets")
      .where("id", "=", assetId)
      .where("profile_id", "=", profileId)
      .returningAll()
      .executeTakeFirst();
  }
}

/** The lock of the writers of one profile's assets. */
const profileLock = (id: string) => `branding.profile:${id}`;
