import { assistantsFromOptions } from "./assistants.ts";
import { applyChange, type CompressedEvent, expandState } from "./compressed-states.ts";
import { ListedExposure } from "./listed-exposure.ts";
import { changedIds, entitiesCarrying } from "./registry-diff.ts";
import { type StructureListener, StructureNotifier } from "./structure-notifier.ts";
import type {
  AreaRegistryEntry,
  DeviceRegistryEntry,
  EntityRegistryEntry,
  HassConfig,
  HassEntity,
  LabelRegistryEntry,
} from "./types.ts";

export type EntityListener = (entityId: string, state: HassEntity | undefined) => void;
export type { StructureListener };

export interface Registries {
  entities: EntityRegistryEntry[];
  devices: DeviceRegistryEntry[];
  areas: AreaRegistryEntry[];
  labels: LabelRegistryEntry[];
}

/** One burst of entity registry changes, applied at once: entries read back from HA, and removed entity ids. */
export interface EntityRegistryChanges {
  upserts: readonly EntityRegistryEntry[];
  removed: readonly string[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const deviceClassOf = (state: HassEntity | undefined) => state?.attributes.device_class;

/**
 * The hub's in-memory picture of Home Assistant: states, the entity, device, area and label registries, and which
 * voice assistants each entity is exposed to. Consumers subscribe per entity (state changes reach only the
 * listeners of that entity) or to structural changes (with the set of affected entity ids), so no event costs work
 * proportional to the whole home.
 */
export class HomeAssistantModel {
  readonly states = new Map<string, HassEntity>();
  readonly entities = new Map<string, EntityRegistryEntry>();
  readonly devices = new Map<string, DeviceRegistryEntry>();
  readonly areas = new Map<string, AreaRegistryEntry>();
  readonly labels = new Map<string, LabelRegistryEntry>();
  readonly #entitiesByDevice = new Map<string, Set<string>>();
  /** `homeassistant/expose_entity/list`'s answer: the assistants per entity id (used where the registry has none). */
  readonly #listedExposure = new ListedExposure();
  readonly #entityListeners = new Map<string, Set<EntityListener>>();
  readonly #structure = new StructureNotifier();
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
    return this.#structure.listen(listener);
  }

  /**
   * Holds structural notifications back until the returned release runs; holds count, and the last release
   * notifies once with every id held back. A registry burst holds from its first event until its entries are
   * applied, so state changes of the same burst (disabled entities losing their state) join the same notification
   * and each bridge reconciles once. Ids held longer than 2 s go out at the next change anyway: overlapping holds
   * never starve listeners. Entity (state) listeners are never held.
   */
  holdStructure(): () => void {
    return this.#structure.hold();
  }

  /** Every entity id HA knows: with a state, a registry entry, or both. */
  entityIds(): Set<string> {
    return new Set([...this.states.keys(), ...this.entities.keys()]);
  }

  entityIdsOfDevice(deviceId: string): ReadonlySet<string> {
    return this.#entitiesByDevice.get(deviceId) ?? new Set();
  }

  /**
   * The voice assistants HA exposes the entity to (`conversation`, `cloud.alexa`, …), sorted: its registry entry's
   * `options[<assistant>].should_expose`, where HA stores it, else (no registry entry, or an HA whose registry list
   * has no `options`) the expose list's answer. Never HA's default for an entity it has no setting for
   * (docs/decisions.md, "Exposed to voice assistants").
   */
  exposedTo(entityId: string): string[] {
    const entry = this.entities.get(entityId);
    if (entry?.options !== undefined) return assistantsFromOptions(entry.options);
    return this.#listedExposure.get(entityId);
  }

  /** True when some entity with a state takes its exposure from the expose list (nothing in HA announces its changes). */
  listedExposureMatters(): boolean {
    for (const id of this.states.keys()) if (this.entities.get(id)?.options === undefined) return true;
    return false;
  }

  /**
   * Applies a `homeassistant/expose_entity/list` answer (`{<entity_id>: {<assistant>: bool}}`); reports the
   * entities whose exposure, as {@link exposedTo} reads it, changed.
   */
  setExposureList(list: Record<string, unknown>): void {
    const affected = this.#listedExposure.replace(list, (id) => this.entities.get(id)?.options === undefined);
    if (affected.size > 0) this.lastUpdated = Date.now();
    this.#emitStructure(affected);
  }

  /** Applies one `subscribe_entities` event. `snapshot` marks the first event after (re)subscribing. */
  applyCompressed(event: CompressedEvent, snapshot = false): void {
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
    this.#applyStates(changed);
  }

  /**
   * Reconciles the states with a complete `get_states` answer (force-sync): a state that differs from HA's, and is not
   * newer than HA's answer (an event may overtake it), is replaced and reported like an event. States missing from
   * the answer stay (their removal arrives as an event). Returns the entity ids that changed.
   */
  applyStates(states: readonly HassEntity[]): string[] {
    const changed = new Map<string, HassEntity>();
    for (const state of states) {
      const previous = this.states.get(state.entity_id);
      if (previous) {
        if (same(previous.state, state.state) && same(previous.attributes, state.attributes)) continue;
        if (Date.parse(previous.last_updated) > Date.parse(state.last_updated)) continue;
      }
      changed.set(state.entity_id, state);
    }
    this.#applyStates(changed);
    return [...changed.keys()];
  }

  /**
   * Stores changed states and notifies: structurally when a state appears or disappears, or when its device class
   * changes (filters select by device class, and HA shows a registry device class change in the state).
   */
  #applyStates(changed: ReadonlyMap<string, HassEntity | undefined>): void {
    const structural = new Set<string>();
    for (const [id, state] of changed) {
      const previous = this.states.get(id);
      if (state) this.states.set(id, state);
      else this.states.delete(id);
      if (Boolean(previous) !== Boolean(state) || deviceClassOf(previous) !== deviceClassOf(state)) structural.add(id);
    }
    if (changed.size > 0) {
      this.lastUpdated = Date.now();
      this.stateEvents++;
    }
    this.#emitStructure(structural);
    for (const [id, state] of changed) this.#emitEntity(id, state);
  }

  /** Replaces all registries (initial load, reconnect, refresh) and reports which entities changed. */
  setRegistries(registries: Registries): void {
    const affected = new Set<string>();
    this.#replaceDevices(registries.devices, affected);
    const incoming = new Map(registries.entities.map((entry) => [entry.entity_id, entry]));
    for (const [id, entry] of this.entities) if (!same(incoming.get(id), entry)) affected.add(id);
    for (const id of incoming.keys()) if (!this.entities.has(id)) affected.add(id);
    this.entities.clear();
    this.#entitiesByDevice.clear();
    for (const entry of incoming.values()) this.#putEntity(entry);
    this.#replaceAreasAndLabels(registries.areas, registries.labels, affected);
    this.lastUpdated = Date.now();
    this.#emitStructure(affected);
  }

  /**
   * Applies re-read lists after device, area or label events: only the lists given are replaced, and the work is
   * that of the lists, plus the entities of changed devices (and, for a renamed area or label, one pass over the
   * entity entries), never a comparison of every entity entry.
   */
  applyRegistryLists(lists: Partial<Omit<Registries, "entities">>): void {
    const affected = new Set<string>();
    if (lists.devices) this.#replaceDevices(lists.devices, affected);
    if (lists.areas || lists.labels) this.#replaceAreasAndLabels(lists.areas, lists.labels, affected);
    this.lastUpdated = Date.now();
    this.#emitStructure(affected);
  }

  /** A burst of entity registry changes (entries read back after their events, removals) with one notification. */
  applyEntityChanges(changes: EntityRegistryChanges): void {
    const affected = new Set<string>();
    for (const id of changes.removed) {
      if (this.#removeEntity(id)) affected.add(id);
    }
    for (const entry of changes.upserts) {
      if (same(this.entities.get(entry.entity_id), entry)) continue;
      this.#removeEntity(entry.entity_id);
      this.#putEntity(entry);
      affected.add(entry.entity_id);
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

  #replaceDevices(devices: readonly DeviceRegistryEntry[], affected: Set<string>): void {
    const oldDevices = new Map(this.devices);
    this.devices.clear();
    for (const device of devices) this.devices.set(device.id, device);
    for (const [id, device] of this.devices) {
      if (!same(oldDevices.get(id), device)) for (const entityId of this.entityIdsOfDevice(id)) affected.add(entityId);
    }
    for (const id of oldDevices.keys()) if (!this.devices.has(id)) for (const e of this.entityIdsOfDevice(id)) affected.add(e);
  }

  #replaceAreasAndLabels(
    areas: readonly AreaRegistryEntry[] | undefined,
    labels: readonly LabelRegistryEntry[] | undefined,
    affected: Set<string>,
  ): void {
    const areasChanged = areas ? changedIds(this.areas, areas, (area) => area.area_id) : new Set<string>();
    const labelsChanged = labels ? changedIds(this.labels, labels, (label) => label.label_id) : new Set<string>();
    if (areas) {
      this.areas.clear();
      for (const area of areas) this.areas.set(area.area_id, area);
    }
    if (labels) {
      this.labels.clear();
      for (const label of labels) this.labels.set(label.label_id, label);
    }
    // An area or label rename changes filter matches by name: the entities carrying it are affected, not every entity.
    for (const id of entitiesCarrying(this, areasChanged, labelsChanged)) affected.add(id);
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

  #removeEntity(entityId: string): boolean {
    const entry = this.entities.get(entityId);
    if (!entry) return false;
    this.entities.delete(entityId);
    if (entry.device_id) this.#entitiesByDevice.get(entry.device_id)?.delete(entityId);
    return true;
  }

  #emitEntity(entityId: string, state: HassEntity | undefined): void {
    const listeners = this.#entityListeners.get(entityId);
    if (listeners) for (const listener of [...listeners]) listener(entityId, state);
  }

  #emitStructure(entityIds: ReadonlySet<string>): void {
    this.#structure.emit(entityIds);
  }
}
