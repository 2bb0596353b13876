import { join } from "node:path";
import * as v from "valibot";
import { DEVICE_TYPE_KEYS } from "../matter/model/contract.ts";
import { readJsonFile, SerialWriter, writeFileAtomic } from "../storage/atomic-file.ts";

export const EntityMappingSchema = v.object({
  matterDeviceType: v.optional(
    v.nullable(v.picklist(DEVICE_TYPE_KEYS, `matterDeviceType must be one of ${DEVICE_TYPE_KEYS.join(", ")}`)),
  ),
  customName: v.optional(
    v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(32, "customName must be at most 32 characters (Matter's label limit)"))),
  ),
  disabled: v.optional(v.boolean()),
  /** A companion entity (battery, power, …) is exposed on its own instead of composed into its device's endpoint. */
  detached: v.optional(v.boolean()),
});
export type EntityMappingInput = v.InferOutput<typeof EntityMappingSchema>;

export interface EntityMapping {
  entityId: string;
  matterDeviceType: string | null;
  customName: string | null;
  disabled: boolean;
  /** Exposed on its own, never composed into another entity's endpoint (see EntityMappingSchema). */
  detached: boolean;
  updatedAt: string;
}

interface MappingsFile {
  version: 1;
  bridges: Record<string, Record<string, EntityMapping>>;
}

/** Per-bridge, per-entity overrides in `<dataDir>/entity-mappings.json`, written atomically. */
export class EntityMappingStore {
  readonly #path: string;
  readonly #writer = new SerialWriter();
  #data: MappingsFile = { version: 1, bridges: {} };
  readonly #listeners = new Set<(bridgeId: string, entityIds: string[]) => void>();

  constructor(dataDir: string) {
    this.#path = join(dataDir, "entity-mappings.json");
  }

  async load(): Promise<void> {
    const file = await readJsonFile<MappingsFile>(this.#path);
    if (file && file.version !== 1) throw new Error(`${this.#path}: unknown format version ${String(file.version)}`);
    this.#data = file ?? { version: 1, bridges: {} };
    // Files written before `detached` existed: their mappings were never detached.
    for (const bridge of Object.values(this.#data.bridges))
      for (const mapping of Object.values(bridge)) mapping.detached ??= false;
  }

  /** Called after a change with the bridge and the entities whose mapping changed. */
  onChange(listener: (bridgeId: string, entityIds: string[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  list(bridgeId: string): EntityMapping[] {
    return Object.values(this.#data.bridges[bridgeId] ?? {}).sort((a, b) => a.entityId.localeCompare(b.entityId));
  }

  get(bridgeId: string, entityId: string): EntityMapping | undefined {
    return this.#data.bridges[bridgeId]?.[entityId];
  }

  async put(bridgeId: string, entityId: string, input: EntityMappingInput): Promise<EntityMapping> {
    const previous = this.get(bridgeId, entityId);
    const mapping: EntityMapping = {
      entityId,
      matterDeviceType: input.matterDeviceType === undefined ? (previous?.matterDeviceType ?? null) : input.matterDeviceType,
      customName: input.customName === undefined ? (previous?.customName ?? null) : input.customName || null,
      disabled: input.disabled ?? previous?.disabled ?? false,
      detached: input.detached ?? previous?.detached ?? false,
      updatedAt: new Date().toISOString(),
    };
    this.#data.bridges[bridgeId] ??= {};
    const bridge = this.#data.bridges[bridgeId];
    bridge[entityId] = mapping;
    await this.#persist();
    this.#notify(bridgeId, [entityId]);
    return mapping;
  }

  /** Deletes one mapping; false when there was none. */
  async delete(bridgeId: string, entityId: string): Promise<boolean> {
    const bridge = this.#data.bridges[bridgeId];
    if (!bridge?.[entityId]) return false;
    delete bridge[entityId];
    await this.#persist();
    this.#notify(bridgeId, [entityId]);
    return true;
  }

  async deleteAll(bridgeId: string): Promise<number> {
    const ids = Object.keys(this.#data.bridges[bridgeId] ?? {});
    delete this.#data.bridges[bridgeId];
    await this.#persist();
    if (ids.length > 0) this.#notify(bridgeId, ids);
    return ids.length;
  }

  #notify(bridgeId: string, entityIds: string[]): void {
    for (const listener of this.#listeners) listener(bridgeId, entityIds);
  }

  #persist(): Promise<void> {
    return this.#writer.run(() => writeFileAtomic(this.#path, `${JSON.stringify(this.#data, null, 2)}\n`));
  }
}
