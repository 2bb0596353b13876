import { createHash, randomUUID } from "node:crypto";
import { HttpError, notFound } from "../../../lib/http-error.ts";
import type { AuditActor, AuditService } from "../audit/audit.service.ts";
import type { ServersRepository } from "../servers/servers.repository.ts";
import type { AssetStore } from "./asset-store.ts";
import type { AssetRow, BrandingRepository, ProfileRow } from "./branding.repository.ts";
import type { UpdateProfileInput } from "./branding.schema.ts";
import {
  ASSET_LIMITS,
  ASSET_PURPOSES,
  type AssetPurpose,
  BRANDING_DEFAULTS,
  type BrandingSettings,
  SETTING_KEYS,
} from "./branding-settings.ts";
import { sniffImage } from "./image-sniff.ts";

/** Public path of an asset: what `logoUrl` & co. point at. Never a storage path. */
export const assetUrl = (id: string) => `/api/branding/assets/${id}`;

export interface AssetRecord {
  id: string;
  purpose: string;
  filename: string;
  mimeType: string;
  size: number;
  url: string;
  createdAt: string;
}

export type ProfileRecord = BrandingSettings & {
  id: string;
  name: string;
  isActive: boolean;
  isDraft: boolean;
  version: number;
  publishedAt: string | null;
  /** The fields set on this profile (the others show their defaults). */
  customized: (keyof BrandingSettings)[];
  assets: AssetRecord[];
  createdAt: string;
  updatedAt: string;
};

/** What `GET /api/branding` returns: every field (defaults filled in) and the asset URLs. */
export type PublicBranding = BrandingSettings & {
  profileId: string | null;
  version: number;
  publishedAt: string | null;
  logoUrl: string | null;
  faviconUrl: string | null;
  heroUrl: string | null;
  backgroundUrl: string | null;
};

/** An upload as the route hands it over; the name and declared type are only kept for the admin's information. */
export interface AssetUpload {
  purpose: AssetPurpose;
  bytes: Uint8Array;
  filename: string;
  declaredType: string;
}

function toAsset(row: AssetRow): AssetRecord {
  return {
    id: row.id,
    purpose: row.purpose,
    filename: row.filename,
    mimeType: row.mime_type,
    size: row.size,
    url: assetUrl(row.id),
    createdAt: row.created_at,
  };
}

/** The stored JSON of set fields, keeping only known keys (a field removed in a later version is ignored). */
function storedSettings(json: string | null): Partial<BrandingSettings> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json ?? "{}");
  } catch {
    return {};
  }
  if (typeof parsed !== "object" || parsed === null) return {};
  const known: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) if (key in parsed) known[key] = (parsed as Record<string, unknown>)[key];
  return known as Partial<BrandingSettings>;
}

const withDefaults = (set: Partial<BrandingSettings>): BrandingSettings => ({
  ...structuredClone(BRANDING_DEFAULTS),
  ...structuredClone(set),
});

/** The uploader's file name without any directory part or control characters; `<purpose>.<ext>` when nothing is left. */
function cleanFilename(name: string, purpose: string, extension: string): string {
  const last = name.split(/[\\/]/).pop() ?? "";
  const cleaned = [...last]
    .filter((char) => char.charCodeAt(0) > 0x1f && char !== "\u007f" && !'"<>'.includes(char))
    .join("")
    .trim()
    .slice(0, 200);
  return cleaned === "" || cleaned === "." || cleaned === ".." ? `${purpose}.${extension}` : cleaned;
}

const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

/**
 * Branding profiles (draft → publish → active, one active at a time), their image assets (one per purpose, type from
 * the bytes, SVG refused) and the public branding of the sign-up page. Every change is audited (server id null:
 * profiles are portal-wide).
 */
export class BrandingService {
  constructor(
    private readonly repository: BrandingRepository,
    private readonly servers: ServersRepository,
    private readonly store: AssetStore,
    private readonly audit: AuditService,
    private readonly now: () => number,
  ) {}

  async list(): Promise<ProfileRecord[]> {
    const rows = await this.repository.listProfiles();
    const assets = await this.repository.listAssets(rows.map((row) => row.id));
    return rows.map((row) => this.toRecord(row, assets));
  }

  async get(id: string): Promise<ProfileRecord> {
    const row = await this.requireProfile(id);
    return this.toRecord(row, await this.repository.listAssets([id]));
  }

  async exists(id: string): Promise<boolean> {
    return (await this.repository.findProfile(id)) !== undefined;
  }

  async create(name: string, actor: AuditActor): Promise<ProfileRecord> {
    const nowIso = this.isoNow();
    const id = randomUUID();
    await this.repository.insertProfile({
      id,
      name,
      is_active: 0,
      is_draft: 1,
      version: 0,
      settings: "{}",
      published_settings: null,
      published_at: null,
      created_at: nowIso,
      updated_at: nowIso,
    });
    await this.audit.record(actor, { action: "branding.created", serverId: null, target: id, detail: { name } });
    return this.get(id);
  }

  /** Sets fields (null goes back to the default); the profile then has unpublished changes (draft). */
  async update(id: string, input: UpdateProfileInput, actor: AuditActor): Promise<ProfileRecord> {
    const fields = Object.entries(input)
      .filter(([key, value]) => value !== undefined && key !== "name")
      .map(([key]) => key);
    // Applied to the stored settings as they are at the moment of writing (the row is locked meanwhile).
    const updated = await this.repository.updateProfileFrom(id, (row) => {
      const settings: Record<string, unknown> = storedSettings(row.settings);
      for (const [key, value] of Object.entries(input)) {
        if (value === undefined || key === "name") continue;
        if (value === null) delete settings[key];
        else settings[key] = value;
      }
      return {
        ...(input.name === undefined ? {} : { name: input.name }),
        settings: JSON.stringify(settings),
        is_draft: fields.length > 0 ? 1 : row.is_draft,
        updated_at: this.isoNow(),
      };
    });
    if (!updated) throw notFound(`No branding profile with id ${id}`);
    if (input.name !== undefined) fields.unshift("name");
    await this.audit.record(actor, { action: "branding.updated", serverId: null, target: id, detail: { fields } });
    return this.get(id);
  }

  async act(id: string, action: "publish" | "reset", actor: AuditActor): Promise<ProfileRecord> {
    await this.requireProfile(id);
    if (action === "publish") {
      const previous = await this.repository.publish(id, this.isoNow());
      const published = await this.requireProfile(id);
      await this.audit.record(actor, {
        action: "branding.published",
        serverId: null,
        target: id,
        detail: { version: published.version, previousActive: previous && previous !== id ? previous : null },
      });
    } else {
      const files = await this.repository.reset(id, this.isoNow());
      await this.store.remove(files);
      await this.audit.record(actor, {
        action: "branding.reset",
        serverId: null,
        target: id,
        detail: { assetsRemoved: files.length },
      });
    }
    return this.get(id);
  }

  /** Deletes the profile, its asset records and files; servers linked to it fall back to the active profile. */
  async delete(id: string, actor: AuditActor): Promise<void> {
    const row = await this.requireProfile(id);
    const result = await this.repository.deleteProfile(id, this.isoNow());
    if (!result) throw notFound(`No branding profile with id ${id}`);
    await this.store.remove(result.files);
    await this.audit.record(actor, {
      action: "branding.deleted",
      serverId: null,
      target: id,
      detail: {
        name: row.name,
        wasActive: row.is_active === 1,
        assetsRemoved: result.files.length,
        unlinkedServers: result.unlinkedServers,
      },
    });
  }

  /**
   * Stores an image for one purpose, replacing (and deleting the file of) the previous one. Checks, in order: not
   * empty (400), within the purpose's size limit (413), no markup / SVG (415), a PNG, JPEG, WebP, GIF or ICO by
   * its magic number, an ICO with a plausible icon directory (415). The bytes are stored with the record, in the
   * database (one transaction), so every portal instance serves them.
   */
  async uploadAsset(
    profileId: string,
    upload: AssetUpload,
    actor: AuditActor,
  ): Promise<{ asset: AssetRecord; replaced: string | null }> {
    await this.requireProfile(profileId);
    const { bytes, purpose } = upload;
    if (bytes.byteLength === 0) throw new HttpError(400, "The uploaded file is empty", "BAD_REQUEST");
    const limit = ASSET_LIMITS[purpose];
    if (bytes.byteLength > limit) {
      throw new HttpError(
        413,
        `A ${purpose} image may be at most ${kb(limit)}; this file has ${kb(bytes.byteLength)}`,
        "PAYLOAD_TOO_LARGE",
      );
    }
    const sniffed = await sniffImage(bytes);
    if (!sniffed.ok) {
      throw new HttpError(
        415,
        sniffed.reason === "markup"
          ? "SVG and other markup files are not accepted (they can carry scripts); upload a PNG, JPEG, WebP, GIF or ICO image"
          : sniffed.reason === "damaged"
            ? `The file is not a readable image (${sniffed.detected}): ${sniffed.problem}`
            : `Only PNG, JPEG, WebP, GIF and ICO images are accepted (the file's content is ${sniffed.detected ?? "not a known image type"})`,
        "UNSUPPORTED_MEDIA_TYPE",
      );
    }
    // Kept for the schema (and for files of older portals): the bytes are in the database now.
    const storageName = `${randomUUID()}.${sniffed.extension}`;
    const row: AssetRow = {
      id: randomUUID(),
      profile_id: profileId,
      purpose,
      filename: cleanFilename(upload.filename, purpose, sniffed.extension),
      mime_type: sniffed.mimeType,
      size: bytes.byteLength,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      storage_name: storageName,
      created_at: this.isoNow(),
    };
    const outcome = await this.repository.replaceAsset(row, bytes);
    if (outcome === false) throw notFound(`No branding profile with id ${profileId}`);
    if (outcome.replaced) await this.store.remove([outcome.replaced.storage_name]);
    await this.audit.record(actor, {
      action: "branding.asset.uploaded",
      serverId: null,
      target: profileId,
      detail: {
        assetId: row.id,
        purpose,
        mimeType: row.mime_type,
        size: row.size,
        declaredType: upload.declaredType.slice(0, 100) || null,
        replaced: outcome.replaced?.id ?? null,
      },
    });
    return { asset: toAsset(row), replaced: outcome.replaced?.id ?? null };
  }

  async deleteAsset(profileId: string, assetId: string, actor: AuditActor): Promise<void> {
    await this.requireProfile(profileId);
    const row = await this.repository.deleteAsset(profileId, assetId);
    if (!row) throw notFound(`No asset ${assetId} in branding profile ${profileId}`);
    await this.store.remove([row.storage_name]);
    await this.audit.record(actor, {
      action: "branding.asset.deleted",
      serverId: null,
      target: profileId,
      detail: { assetId, purpose: row.purpose },
    });
  }

  /** An asset's record for `GET /api/branding/assets/:id`; undefined for an unknown id. */
  async findAsset(id: string): Promise<AssetRow | undefined> {
    if (!/^[0-9a-f-]{36}$/.test(id)) return undefined;
    return this.repository.findAsset(id);
  }

  /** The bytes of an asset (from the database, else from an older portal's file); undefined when they are gone. */
  async readAssetBytes(row: AssetRow): Promise<Buffer | undefined> {
    return (await this.repository.assetContent(row.id)) ?? this.store.read(row.storage_name);
  }

  /**
   * Moves the bytes of assets stored as files by a portal before migration 0013 into the database, then removes the
   * files; at start, on every instance (a second one finds nothing left, or the bytes there already). A file missing
   * here (another machine's data dir) stays to be moved by the instance that has it. Returns how many were moved.
   */
  async moveAssetFilesIn(): Promise<number> {
    let moved = 0;
    for (const row of await this.repository.assetsWithoutContent()) {
      const bytes = await this.store.read(row.storage_name);
      if (!bytes) continue;
      if (await this.repository.addAssetContent(row.id, bytes)) moved += 1;
      await this.store.remove([row.storage_name]);
    }
    return moved;
  }

  /**
   * The published branding for the sign-up page: the profile linked to the requested server when it has been
   * published, else the active profile, else the built-in defaults. Text and colours are those of the last
   * publish; images are the profile's current ones (an upload replaces the file, as the spec requires).
   */
  async publicBranding(selector: {
    serverId?: string | undefined;
    slug?: string | undefined;
    domain?: string | undefined;
  }): Promise<PublicBranding> {
    let profile: ProfileRow | undefined;
    const server = selector.serverId
      ? await this.servers.find(selector.serverId)
      : selector.slug
        ? await this.servers.findBy("slug", selector.slug)
        : selector.domain
          ? await this.servers.findBy(
              "public_domain",
              selector.domain.trim().toLowerCase().replace(/:\d+$/, "").replace(/\.$/, ""),
            )
          : undefined;
    if (server?.enabled === 1 && server.branding_profile_id) {
      const linked = await this.repository.findProfile(server.branding_profile_id);
      if (linked?.published_settings) profile = linked;
    }
    profile ??= await this.repository.findActive();
    const assets = profile ? await this.repository.listAssets([profile.id]) : [];
    const urlOf = (purpose: AssetPurpose) => {
      const asset = assets.find((row) => row.purpose === purpose);
      return asset ? assetUrl(asset.id) : null;
    };
    return {
      profileId: profile?.id ?? null,
      version: profile?.version ?? 0,
      publishedAt: profile?.published_at ?? null,
      ...withDefaults(storedSettings(profile?.published_settings ?? null)),
      logoUrl: urlOf("logo"),
      faviconUrl: urlOf("favicon"),
      heroUrl: urlOf("hero"),
      backgroundUrl: urlOf("background"),
    };
  }

  private async requireProfile(id: string): Promise<ProfileRow> {
    const row = await this.repository.findProfile(id);
    if (!row) throw notFound(`No branding profile with id ${id}`);
    return row;
  }

  private toRecord(row: ProfileRow, assets: AssetRow[]): ProfileRecord {
    const set = storedSettings(row.settings);
    const own = assets.filter((asset) => asset.profile_id === row.id);
    own.sort((a, b) => ASSET_PURPOSES.indexOf(a.purpose as AssetPurpose) - ASSET_PURPOSES.indexOf(b.purpose as AssetPurpose));
    return {
      id: row.id,
      name: row.name,
      isActive: row.is_active === 1,
      isDraft: row.is_draft === 1,
      version: row.version,
      publishedAt: row.published_at,
      ...withDefaults(set),
      customized: Object.keys(set) as (keyof BrandingSettings)[],
      assets: own.map(toAsset),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  private isoNow(): string {
    return new Date(this.now()).toISOString();
  }
}
