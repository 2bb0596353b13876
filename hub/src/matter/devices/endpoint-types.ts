/**
 * Builds the matter.js Endpoint for an HA entity and keeps it in step with HA. HA → Matter flows through
 * {@link updateDeviceEndpoint} only: it projects the new state, compares with the endpoint's attributes and writes
 * just the ones that differ (no transaction at all when nothing changed; docs/research-notes.md "Changed attributes
 * only": CPU scaling with entities × events). Matter → HA flows through the cluster behaviors in ../behaviors.
 */
import { Endpoint, isDeepEqual } from "@matter/main";
import { BridgedDeviceBasicInformationServer } from "@matter/main/behaviors/bridged-device-basic-information";
import { bindingOfEndpoint, type EntityBinding, HaEntityBehavior } from "../behaviors/ha-entity-behavior.ts";
import { cutUtf8, hashedId } from "../matter-strings.ts";
import type { ActionSink, Companions, DeviceTypeKey, EntitySnapshot, PinCheck, UnitSystem } from "../model/contract.ts";
import { NO_PIN_REQUIRED } from "../model/contract.ts";
import { FACETS, type Facet } from "./facets/index.ts";
import { type DeviceKind, type KindContext, loadKind, type StatePatch } from "./kinds/index.ts";
import { mergePatches, withoutUndefined } from "./kinds/kind.ts";
import { type StateWriter, writeAlone } from "./state-writer.ts";

/** Input of {@link createDeviceEndpoint}. */
export interface DeviceEndpointOptions {
  /** Endpoint id: stable per entity, matter.js persists the endpoint number against it. */
  id: string;
  snapshot: EntitySnapshot;
  key: DeviceTypeKey;
  /** Companion entities of the same HA device composed into this endpoint (battery, power, …); none by default. */
  companions?: Companions | undefined;
  /** Server mode: the endpoint sits under the root node, without BridgedDeviceBasicInformation. */
  serverMode?: boolean | undefined;
  actions: ActionSink;
  /** Asked before every remote unlock; default: no PIN required. */
  pinCheck?: PinCheck | undefined;
  unitSystem: UnitSystem;
  /**
   * Extra BridgedDeviceBasicInformation values (vendorName, productName, serialNumber, uniqueId, …) from the HA
   * device registry. Without `uniqueId` a hash of the entity id is used.
   */
  basicInformation?: Record<string, unknown> | undefined;
}

/** What {@link updateDeviceEndpoint} did. */
export interface DeviceUpdate {
  /** `behavior.attribute` for every attribute written. */
  changed: string[];
  /** The entity's capabilities changed (e.g. a light gained colour): recreate the endpoint to expose them. */
  rebuild: boolean;
}

/** Each binding's kind, loaded when its endpoint was created (kinds/index.ts). */
const kinds = new WeakMap<EntityBinding, DeviceKind>();
const signatures = new WeakMap<EntityBinding, string>();
/** Each binding's {@link updateDeviceEndpoint} calls, one after the other. */
interface UpdateQueue {
  /** The last call's result: the next call starts after it. */
  tail: Promise<unknown>;
  /** The newest call: an older one that queued behind another and has not started yet is skipped. */
  newest: object;
  /** Calls not finished yet (0: the queue is idle). */
  unfinished: number;
  /** The newest call's snapshot, and the newest companions any call brought: what a refreshed write writes. */
  snapshot?: EntitySnapshot;
  companions?: Companions;
}
const queues = new WeakMap<EntityBinding, UpdateQueue>();

/** A stable 32-character id from the entity id (Matter UniqueID must not change for the device's life). */
export function defaultUniqueId(entityId: string): string {
  return hashedId(`matter-hub:${entityId}`);
}

function reachable(snapshot: EntitySnapshot): boolean {
  return snapshot.state !== undefined && snapshot.state.state !== "unavailable";
}

/** The kind's view of the binding; a kind measuring its own entity through a facet is its own companion. */
function contextOf(binding: EntityBinding, kind: DeviceKind): KindContext {
  const role = kind.ownRole?.(binding.snapshot);
  const companions = role ? { ...binding.companions, [role]: binding.snapshot } : binding.companions;
  return { snapshot: binding.snapshot, unitSystem: binding.unitSystem, companions };
}

/** The facets these companions call for. */
function facetsOf(companions: Companions): Facet[] {
  return FACETS.filter((facet) => facet.applies(companions));
}

/** The kind's signature and each applied facet's: any difference means the endpoint type must be rebuilt. */
function signatureOf(kind: DeviceKind, context: KindContext): string {
  const facets = facetsOf(context.companions).map((facet) => facet.signature(context));
  return [kind.signature(context), ...facets].join("|");
}

function projection(binding: EntityBinding, kind: DeviceKind, serverMode: boolean): StatePatch {
  const context = contextOf(binding, kind);
  const projected = reachable(binding.snapshot) ? kind.project(context) : {};
  // Companions have their own states: a battery level stays valid while the main entity is unavailable.
  const facets = facetsOf(context.companions).map((facet) => facet.project(context));
  const bridged: StatePatch = serverMode
    ? {}
    : { bridgedDeviceBasicInformation: { reachable: reachable(binding.snapshot), nodeLabel: cutUtf8(binding.snapshot.name) } };
  return mergePatches(projected, ...facets, bridged);
}

/**
 * A new (not yet added) Endpoint for an entity: the kind's device type and behaviors, HaEntityBehavior bound to
 * this entity and, on a bridge, BridgedDeviceBasicInformation. The caller adds it to the aggregator (or root).
 */
export async function createDeviceEndpoint(options: DeviceEndpointOptions): Promise<Endpoint> {
  const kind = await loadKind(options.key);
  const binding: EntityBinding = {
    key: options.key,
    actions: options.actions,
    pinCheck: options.pinCheck ?? NO_PIN_REQUIRED,
    unitSystem: options.unitSystem,
    snapshot: options.snapshot,
    companions: options.companions ?? {},
    staged: {},
  };
  kinds.set(binding, kind);
  const context = contextOf(binding, kind);
  signatures.set(binding, signatureOf(kind, context));
  const serverMode = options.serverMode === true;
  const extras = serverMode
    ? [HaEntityBehavior.forEntity(binding)]
    : [HaEntityBehavior.forEntity(binding), BridgedDeviceBasicInformationServer];
  const facets = facetsOf(context.companions);
  const type = kind.endpointType(context).with(...facets.flatMap((facet) => facet.behaviors(context)), ...extras);
  const fixed = [kind.fixed?.(context), ...facets.map((facet) => facet.fixed?.(context))];
  const state = withoutUndefined(mergePatches(...fixed, projection(binding, kind, serverMode)));
  if (!serverMode) {
    state.bridgedDeviceBasicInformation = {
      uniqueId: defaultUniqueId(options.snapshot.entityId),
      ...options.basicInformation,
      ...state.bridgedDeviceBasicInformation,
    };
  }
  const endpoint = new Endpoint(type, { id: options.id, ...state } as Endpoint.Options);
  binding.afterRefusal = () =>
    setImmediate(() => {
      // The endpoint may be gone by now; nothing to re-sync then.
      updateDeviceEndpoint(endpoint, binding.snapshot).catch(() => undefined);
    });
  return endpoint;
}

/**
 * Equality between a current attribute value and a projected one. Bitmaps come back from matter.js with every
 * bit while projections name only the bits they know (e.g. ThermostatRunningState {heat, cool, fan}), so for
 * objects a bit missing on one side counts as false.
 */
export function sameValue(current: unknown, next: unknown): boolean {
  const isRecord = (value: unknown): value is Record<string, unknown> =>
    typeof value === "object" && value !== null && !Array.isArray(value);
  if (!isRecord(current) || !isRecord(next)) return isDeepEqual(current, next);
  const keys = new Set([...Object.keys(current), ...Object.keys(next)]);
  for (const key of keys) {
    const a = current[key] === undefined ? false : current[key];
    const b = next[key] === undefined ? false : next[key];
    if (!sameValue(a, b)) return false;
  }
  return true;
}

/**
 * Attributes of `patch` whose value differs from the endpoint's current one and that every facet accepts (a
 * cumulative counter refuses a lower reading).
 */
function differences(
  endpoint: Endpoint,
  patch: StatePatch,
  facets: readonly Facet[],
): { changes: StatePatch; changed: string[] } {
  const changes: StatePatch = {};
  const changed: string[] = [];
  const current = endpoint.state as unknown as Record<string, Record<string, unknown> | undefined>;
  for (const [behavior, values] of Object.entries(patch)) {
    const existing = current[behavior];
    if (existing === undefined) continue;
    for (const [attribute, value] of Object.entries(values)) {
      if (value === undefined || sameValue(existing[attribute], value)) continue;
      if (facets.some((facet) => facet.accepts?.(behavior, attribute, existing[attribute], value) === false)) continue;
      changes[behavior] = { ...changes[behavior], [attribute]: value };
      changed.push(`${behavior}.${attribute}`);
    }
  }
  return { changes, changed };
}

/** `behavior.attribute` for every attribute of a patch. */
function namesOf(patch: StatePatch): string[] {
  return Object.entries(patch).flatMap(([behavior, values]) =>
    Object.keys(values).map((attribute) => `${behavior}.${attribute}`),
  );
}

/**
 * The changes that bring the endpoint to the newest call's state, for a write still waiting for its group when a
 * newer call arrived (state-writer.ts `Refresh`): undefined when the newest state needs a rebuild (the later call
 * handles that), so the write keeps its own changes.
 */
function newestChanges(
  endpoint: Endpoint,
  binding: EntityBinding,
  kind: DeviceKind,
  queue: UpdateQueue,
  serverMode: boolean,
): StatePatch | undefined {
  if (!queue.snapshot) return undefined;
  const newest: EntityBinding = { ...binding, snapshot: queue.snapshot, companions: queue.companions ?? binding.companions };
  const context = contextOf(newest, kind);
  if (signatureOf(kind, context) !== signatures.get(binding)) return undefined;
  return differences(endpoint, projection(newest, kind, serverMode), facetsOf(context.companions)).changes;
}

/**
 * Brings an endpoint made by {@link createDeviceEndpoint} up to `snapshot`: `reachable` from `unavailable`,
 * the name, and every attribute the kind derives from the state. Only changed attributes are written. Calls for
 * one endpoint run one after the other in call order: the next one starts once the previous one's write committed.
 * A call that had to queue behind an earlier one and is still waiting when a newer one arrives is skipped (it
 * resolves with nothing changed): the newer state is what controllers must end up seeing, and under an event storm
 * an endpoint's backlog stays one write long instead of growing with every event (docs/PERFORMANCE.md "Load at 3,000
 * changes/s"). A call made while the endpoint's queue is idle always runs: its write is what carries HA's state past
 * a command in flight (the command commits its own value; a later call that finds nothing to change against the
 * state before that commit would leave the command's value standing). Kinds that turn each state change into a
 * Matter event (a button press, a boost ending) are never skipped.
 * With a `writer`, the write shares a transaction with the other endpoints' writes of the same turn (state-writer.ts);
 * without, it has its own. A write still waiting for its group when newer calls arrive writes the newest call's state
 * instead of its own, unless a command holds the endpoint or the kind or a facet acts on what changed; the newer
 * calls then find nothing left to change (`changed` names what each call's write really carried).
 *
 * While a controller command on the endpoint waits for its HA call, the write waits for that command's lock; so
 * never await this in the code path that delivers HA call results, or both would wait on each other.
 */
export function updateDeviceEndpoint(
  endpoint: Endpoint,
  snapshot: EntitySnapshot,
  companions?: Companions,
  writer?: StateWriter,
): Promise<DeviceUpdate> {
  const binding = bindingOfEndpoint(endpoint);
  const kind = binding && kinds.get(binding);
  if (!binding || !kind) throw new Error(`${endpoint} was not created by createDeviceEndpoint`);
  const ticket = {};
  const queue: UpdateQueue = queues.get(binding) ?? { tail: Promise.resolve(), newest: ticket, unfinished: 0 };
  queues.set(binding, queue);
  const skippable = queue.unfinished > 0 && !kind.afterUpdate;
  queue.newest = ticket;
  queue.unfinished++;
  queue.snapshot = snapshot;
  if (companions) queue.companions = companions;
  const run = async (): Promise<DeviceUpdate> => {
    // Kept even by a superseded call, since the newer one may not repeat them: new companions, and HA having had the
    // light on (values staged while it was off with ExecuteIfOff are obsolete then).
    if (companions) binding.companions = companions;
    if (snapshot.domain === "light" && snapshot.state?.state === "on") binding.staged = {};
    // Superseded: the newer call writes the newer state.
    if (skippable && queue.newest !== ticket) return { changed: [], rebuild: false };
    const previous = binding.snapshot;
    binding.snapshot = snapshot;
    const serverMode = !endpoint.behaviors.has(BridgedDeviceBasicInformationServer);
    const context = contextOf(binding, kind);
    const rebuild = signatureOf(kind, context) !== signatures.get(binding);
    // The endpoint lacks the clusters of a new companion until it is rebuilt: only the facets it was built with.
    const facets = rebuild ? [] : facetsOf(context.companions);
    const { changes, changed } = differences(endpoint, projection(binding, kind, serverMode), facets);
    let written = changed;
    if (changed.length > 0 && !writer) await writeAlone(endpoint, changes);
    else if (changed.length > 0 && writer) {
      // Events and facets that act on what changed see exactly what this call wrote: no refresh for them.
      const refresh =
        kind.afterUpdate || facets.some((facet) => facet.afterUpdate)
          ? undefined
          : () => (queue.newest === ticket ? undefined : newestChanges(endpoint, binding, kind, queue, serverMode));
      const patch = await writer.write(endpoint, changes, refresh);
      if (patch !== changes) written = namesOf(patch);
    }
    await kind.afterUpdate?.(endpoint, previous, snapshot);
    for (const facet of facets) await facet.afterUpdate?.(endpoint, changed);
    return { changed: written, rebuild };
  };
  const result = queue.tail.then(run, run).finally(() => {
    queue.unfinished--;
  });
  queue.tail = result;
  return result;
}
