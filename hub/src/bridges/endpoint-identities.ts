import { join } from "node:path";
import type { EntityView } from "../home-assistant/entity-view.ts";
import { readJsonFile, SerialWriter, writeFileAtomic } from "../storage/atomic-file.ts";

interface IdentityFile {
  version: 1;
  next: number;
  /** Identity key → endpoint id; entries are never deleted, so a returning entity gets its old endpoint back. */
  endpoints: Record<string, { endpointId: string; entityId: string }>;
}

/**
 * The key an entity keeps across renames, HA restarts and registry re-creation: the integration's unique id
 * (`platform` + `unique_id`) where HA has one, else the registry entry id, else the entity id (YAML entities
 * without a unique id cannot be renamed anyway). Controllers (Alexa above all) duplicate a device whose
 * identity moves, so this is the root of endpoint stability.
 */
export function identityKey(view: Pick<EntityView, "entityId" | "registry">): string {
  const registry = view.registry;
  if (registry?.unique_id) return `u:${registry.platform}:${registry.unique_id}`;
  if (registry?.id) return `r:${registry.id}`;
  return `e:${view.entityId}`;
}

/**
 * Per-bridge, persisted map from entity identity to the matter.js endpoint id (matter.js keeps the endpoint
 * number for an id), in `<dataDir>/identities/<bridgeId>.json`.
 */
export class EndpointIdentities {
  readonly #path: string;
  readonly #writer = new SerialWriter();
  #data: IdentityFile = { version: 1, next: 1, endpoints: {} };

  constructor(dataDir: string, bridgeId: string) {
    this.#path = join(dataDir, "identities", `${bridgeId}.json`);
  }

  get path(): string {
    return this.#path;
  }

  async load(): Promise<void> {
    const file = await readJsonFile<IdentityFile>(this.#path);
    if (file && file.version !== 1) throw new Error(`${this.#path}: unknown format version ${String(file.version)}`);
    this.#data = file ?? { version: 1, next: 1, endpoints: {} };
  }

  /** The endpoint id for this entity, allocating (and persisting) a new one the first time it is seen. */
  async endpointIdFor(view: Pick<EntityView, "entityId" | "registry">): Promise<string> {
    const key = identityKey(view);
    const known = this.#data.endpoints[key];
    if (known) {
      if (known.entityId !== view.entityId) {
        known.entityId = view.entityId;
        await this.#persist();
      }
      return known.endpointId;
    }
    const endpointId = `e${this.#data.next++}`;
    this.#data.endpoints[key] = { endpointId, entityId: view.entityId };
    await this.#persist();
    return endpointId;
  }

  #persist(): Promise<void> {
    return this.#writer.run(() => writeFileAtomic(this.#path, `${JSON.stringify(this.#data, null, 2)}\n`));
  }
}
