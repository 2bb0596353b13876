import { applyChange, type CompressedEvent, expandState } from "./compressed-states.ts";
import type {
  AreaRegistryEntry,
  DeviceRegistryEntry,
  EntityRegistryEntry,
  HassConfig,
  HassEntity,
  LabelRegistryEntry,
} from "./types.ts";

export type EntityListener = (entityId: string, state: HassEntity | undefined) => void;
/** Structural change: these entities appeared, disappeared, or changed registry data (name, area, labels…). */
export type StructureListener = (entityIds: ReadonlySet<string>) => void;

export interface Registries {
  entities: EntityRegistryEntry[];
  devices: DeviceRegistryEntry[];
  areas: AreaRegistryEntry[];
  labels: LabelRegistryEntry[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The hub's in-memory picture of Home Assistant: states and the entity, device, area and label registries.
 * Consumers subscribe per entity (state changes reach only the listeners of that entity) or to structural
 * changes (with the set of affected entity ids), so no event costs work proportional to the whole home.
 */
export class HomeAssistantModel {
  readonly states = new Map<string, HassEntity>();
  readonly entities = new Map<string, EntityRegistryEntry>();
  readonly devices = new Map<string, DeviceRegistryEntry>();
  readonly areas = new Map<string, AreaRegistryEntry>();
  readonly labels = new Map<string, LabelRegistryEntry>();
  readonly #entitiesByDevice = new Map<string, Set<string>>();
  readonly #entityListeners = new Map<string, Set<EntityListener>>();
  readonly #structureListeners = new Set<StructureListener>();
  config: HassConfig | undefined;
  /** Epoch ms of the last applied change of any kind. */
  lastUpdated = 0;
  /** Counts state events applied (metrics). */
  stateEvents = 0;

  /** Listens to one entity's state; returns the unsubscribe function. */
  onEntity(entityId: string, listener: EntityListener): () => void {
    let set = this.#entityListeners.get(entityId);
    if (!set) {
      set = new Set();
      this.#entityListeners.set(entityId, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.#entityListeners.delete(entityId);
    };
  }

  onStructure(listener: StructureListener): () => void {
    this.#structureListeners.add(listener);
    return () => this.#structureListeners.delete(listener);
  }

  /** Every entity id HA knows: with a state, a registry entry, or both. */
  entityIds(): Set<string> {
    return new Set([...this.states.keys(), ...this.entities.keys()]);
  }

  entityIdsOfDevice(deviceId: string): ReadonlySet<string> {
    return this.#entitiesByDevice.get(deviceId) ?? new Set();
  }

  /** Applies one `subscribe_entities` event. `snapshot` marks the first event after (re)subscribing. */
  applyCompressed(event: CompressedEvent, snapshot = false): void {
    const structural = new Set<string>();
    const changed = new Map<string, HassEntity | undefined>();
    if (snapshot) {
      // After a reconnect the first event is the whole home: entities missing from it are gone.
      for (const id of this.states.keys()) if (!event.a || !(id in event.a)) changed.set(id, undefined);
    }
    for (const [id, compressed] of Object.entries(event.a ?? {})) {
      const next = expandState(id, compressed);
      const previous = this.states.get(id);
      if (previous && snapshot && same(previous.state, next.state) && same(previous.attributes, next.attributes)) {
        changed.delete(id);
        continue;
      }
      changed.set(id, next);
    }
    for (const [id, change] of Object.entries(event.c ?? {})) {
      const previous = changed.get(id) ?? this.states.get(id);
      if (previous) changed.set(id, applyChange(previous, change));
    }
    for (const id of event.r ?? []) changed.set(id, undefined);

    for (const [id, state] of changed) {
      const existed = this.states.has(id);
      if (state) this.states.set(id, state);
      else this.states.delete(id);
      if (existed !== Boolean(state)) structural.add(id);
    }
    if (changed.size > 0) {
      this.lastUpdated = Date.now();
      this.stateEvents++;
    }
    this.#emitStructure(structural);
    for (const [id, state] of changed) this.#emitEntity(id, state);
  }

  /**
   * Reconciles the states with a complete `get_states` answer (force-sync): a state that differs from HA's, and is not
   * newer than HA's answer (an event may overtake it), is replaced and reported like an event. States missing from
   * the answer stay (their removal arrives as an event). Returns the entity ids that changed.
   */
  applyStates(states: readonly HassEntity[]): string[] {
    const changed = new Map<string, HassEntity>();
    const structural = new Set<string>();
    for (const state of states) {
      const previous = this.states.get(state.entity_id);
      if (previous) {
        if (same(previous.state, state.state) && same(previous.attributes, state.attributes)) continue;
        if (Date.parse(previous.last_updated) > Date.parse(state.last_updated)) continue;
      } else {
        structural.add(state.entity_id);
      }
      changed.set(state.entity_id, state);
    }
    for (const [id, state] of changed) this.states.set(id, state);
    if (changed.size > 0) {
      this.lastUpdated = Date.now();
      this.stateEvents++;
    }
    this.#emitStructure(structural);
    for (const [id, state] of changed) this.#emitEntity(id, state);
    return [...changed.keys()];
  }

  /** Replaces all registries (initial load, reconnect, refresh) and reports which entities changed. */
  setRegistries(registries: Registries): void {
    const affected = new Set<string>();
    const oldDevices = new Map(this.devices);
    this.devices.clear();
    for (const device of registries.devices) this.devices.set(device.id, device);
    for (const [id, device] of this.devices) {
      if (!same(oldDevices.get(id), device)) for (const entityId of this.entityIdsOfDevice(id)) affected.add(entityId);
    }
    for (const id of oldDevices.keys()) if (!this.devices.has(id)) for (const e of this.entityIdsOfDevice(id)) affected.add(e);

    const incoming = new Map(registries.entities.map((entry) => [entry.entity_id, entry]));
    for (const [id, entry] of this.entities) if (!same(incoming.get(id), entry)) affected.add(id);
    for (const id of incoming.keys()) if (!this.entities.has(id)) affected.add(id);
    this.entities.clear();
    this.#entitiesByDevice.clear();
    for (const entry of incoming.values()) this.#putEntity(entry);

    const areasChanged = changedIds(this.areas, registries.areas, (area) => area.area_id);
    const labelsChanged = changedIds(this.labels, registries.labels, (label) => label.label_id);
    this.areas.clear();
    for (const area of registries.areas) this.areas.set(area.area_id, area);
    this.labels.clear();
    for (const label of registries.labels) this.labels.set(label.label_id, label);
    // An area or label rename changes filter matches by name: the entities carrying that area (their own or their
    // device's) or that label are affected, not every entity (each affected entity is re-checked by every bridge).
    if (areasChanged.size > 0 || labelsChanged.size > 0) {
      for (const [id, entry] of this.entities) {
        const device = entry.device_id ? this.devices.get(entry.device_id) : undefined;
        const area = entry.area_id ?? device?.area_id;
        if (
          (area && areasChanged.has(area)) ||
          entry.labels?.some((label) => labelsChanged.has(label)) ||
          device?.labels?.some((label) => labelsChanged.has(label))
        )
          affected.add(id);
      }
    }
    this.lastUpdated = Date.now();
    this.#emitStructure(affected);
  }

  /** One entity registry entry created or updated (a rename passes the old id). */
  upsertEntity(entry: EntityRegistryEntry, oldEntityId?: string): void {
    const affected = new Set([entry.entity_id]);
    if (oldEntityId && oldEntityId !== entry.entity_id) {
      this.#removeEntity(oldEntityId);
      affected.add(oldEntityId);
    } else {
      this.#removeEntity(entry.entity_id);
    }
    this.#putEntity(entry);
    this.lastUpdated = Date.now();
    this.#emitStructure(affected);
  }

  removeEntity(entityId: string): void {
    this.#removeEntity(entityId);
    this.lastUpdated = Date.now();
    this.#emitStructure(new Set([entityId]));
  }

  #putEntity(entry: EntityRegistryEntry): void {
    this.entities.set(entry.entity_id, entry);
    if (entry.device_id) {
      let set = this.#entitiesByDevice.get(entry.device_id);
      if (!set) {
        set = new Set();
        this.#entitiesByDevice.set(entry.device_id, set);
      }
      set.add(entry.entity_id);
    }
  }

  #removeEntity(entityId: string): void {
    const entry = this.entities.get(entityId);
    if (!entry) return;
    this.entities.delete(entityId);
    if (entry.device_id) this.#entitiesByDevice.get(entry.device_id)?.delete(entityId);
  }

  #emitEntity(entityId: string, state: HassEntity | undefined): void {
    const listeners = this.#entityListeners.get(entityId);
    if (listeners) for (const listener of [...listeners]) listener(entityId, state);
  }

  #emitStructure(entityIds: Set<string>): void {
    if (entityIds.size === 0) return;
    for (const listener of [...this.#structureListeners]) listener(entityIds);
  }
}

/** Ids added, removed or changed between a registry map and its new list. */
function changedIds<T>(current: ReadonlyMap<string, T>, incoming: readonly T[], idOf: (entry: T) => string): Set<string> {
  const changed = new Set<string>();
  const seen = new Set<string>();
  for (const entry of incoming) {
    const id = idOf(entry);
    seen.add(id);
    if (!same(current.get(id), entry)) changed.add(id);
  }
  for (const id of current.keys()) if (!seen.has(id)) changed.add(id);
  return changed;
}
