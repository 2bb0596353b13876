import { join } from "node:path";
import type { EntityView } from "../home-assistant/entity-view.ts";
import { readJsonFile, SerialWriter, writeFileAtomic } from "../storage/atomic-file.ts";
import { bridgeFiles } from "./bridge-files.ts";

interface IdentityFile {
  version: 1;
  next: number;
  /** Identity key → endpoint id; entries are never deleted, so a returning entity gets its old endpoint back. */
  endpoints: Record<string, { endpointId: string; entityId: string }>;
}

/**
 * The key an entity keeps across renames, HA restarts and registry re-creation: the integration's unique id where HA
 * has one, else the registry entry id, else the entity id (YAML entities without a unique id cannot be renamed
 * anyway). Controllers (Alexa above all) duplicate a device whose identity moves, so this is the root of endpoint
 * stability. A unique id is unique per domain and platform only (HA's registry keys on all three: the demo
 * integration has a `button.push` and an `event.push`, both `push`), so the key carries the domain; a domain never
 * changes with a rename.
 */
export function identityKey(view: Pick<EntityView, "entityId" | "registry">): string {
  const registry = view.registry;
  if (registry?.unique_id) return `du:${domainOf(view.entityId)}:${registry.platform}:${registry.unique_id}`;
  if (registry?.id) return `r:${registry.id}`;
  return `e:${view.entityId}`;
}

/** The key unique ids were saved under before the domain was added (`u:<platform>:<unique id>`). */
function legacyKey(view: Pick<EntityView, "registry">): string | undefined {
  const registry = view.registry;
  return registry?.unique_id ? `u:${registry.platform}:${registry.unique_id}` : undefined;
}

const domainOf = (entityId: string) => entityId.slice(0, entityId.indexOf("."));

/**
 * Per-bridge, persisted map from entity identity to the matter.js endpoint id (matter.js keeps the endpoint
 * number for an id), in `<dataDir>/identities/<bridgeId>.json`.
 */
export class EndpointIdentities {
  readonly #path: string;
  readonly #writer = new SerialWriter();
  #data: IdentityFile = { version: 1, next: 1, endpoints: {} };
  #dirty = false;
  #lastWrite: Promise<void> = Promise.resolve();

  constructor(dataDir: string, bridgeId: string) {
    this.#path = join(dataDir, bridgeFiles(bridgeId).identities);
  }

  get path(): string {
    return this.#path;
  }

  async load(): Promise<void> {
    const file = await readJsonFile<IdentityFile>(this.#path);
    if (file && file.version !== 1) throw new Error(`${this.#path}: unknown format version ${String(file.version)}`);
    this.#data = file ?? { version: 1, next: 1, endpoints: {} };
  }

  /**
   * The endpoint id for this entity, allocating a new one the first time it is seen. Allocations are kept in memory
   * until {@link flush}: the bridge flushes before the node starts and before adding a device to a running node, so
   * no endpoint ever reaches a controller with its identity unsaved, while the first start of a large bridge writes the
   * file once instead of once per entity (which grew with the square of the entity count).
   */
  endpointIdFor(view: Pick<EntityView, "entityId" | "registry">): string {
    const key = identityKey(view);
    const known = this.#data.endpoints[key] ?? this.#adoptLegacy(key, view);
    if (known) {
      if (known.entityId !== view.entityId) {
        known.entityId = view.entityId;
        this.#dirty = true;
      }
      return known.endpointId;
    }
    const endpointId = `e${this.#data.next++}`;
    this.#data.endpoints[key] = { endpointId, entityId: view.entityId };
    this.#dirty = true;
    return endpointId;
  }

  /**
   * An endpoint saved under the old key moves to the new one, so an update keeps every endpoint a controller knows.
   * Two entities that shared the old key (same unique id, two domains) shared one endpoint: it stays with the entity
   * of the domain that held it last, the other gets a new one.
   */
  #adoptLegacy(key: string, view: Pick<EntityView, "entityId" | "registry">): IdentityFile["endpoints"][string] | undefined {
    const legacy = legacyKey(view);
    const entry = legacy ? this.#data.endpoints[legacy] : undefined;
    if (!legacy || !entry || domainOf(entry.entityId) !== domainOf(view.entityId)) return undefined;
    delete this.#data.endpoints[legacy];
    this.#data.endpoints[key] = entry;
    this.#dirty = true;
    return entry;
  }

  /** Writes what changed since the last flush (one write for any number of changes). */
  flush(): Promise<void> {
    if (!this.#dirty) return this.#lastWrite;
    this.#dirty = false;
    const text = `${JSON.stringify(this.#data, null, 2)}\n`;
    this.#lastWrite = this.#writer
      .run(() => writeFileAtomic(this.#path, text))
      .catch((error: unknown) => {
        this.#dirty = true; // written again at the next flush
        throw error;
      });
    return this.#lastWrite;
  }
}
