import type { Endpoint } from "@matter/main";
import type { Logger } from "../../../../lib/logger.ts";
import type { BridgeConfig } from "../../bridges/bridge-config.ts";
import type { EndpointIdentities } from "../../bridges/endpoint-identities.ts";
import type { CompiledFilter } from "../../bridges/filter.ts";
import type { EntityMappingStore } from "../../entity-mappings/entity-mapping-store.ts";
import { type EntityView, viewEntity } from "../../home-assistant/entity-view.ts";
import type { HomeAssistantService } from "../../home-assistant/home-assistant-service.ts";
import { updateDeviceEndpoint } from "../devices/endpoint-types.ts";
import { StateWriter } from "../devices/state-writer.ts";
import { cutUtf8 } from "../matter-strings.ts";
import { companionRoleOf } from "../model/companion-role.ts";
import type { CompanionRole, DeviceTypeKey, EntitySnapshot, PinCheck } from "../model/contract.ts";
import type { PluginHostForBridge } from "../plugin-devices/seam.ts";
import { createEntityEndpoint } from "./builders.ts";
import { CompanionLinks } from "./companion-links.ts";
import type { CompanionIds } from "./composition.ts";
import type { DeviceSets, ExposedDevice } from "./device-rows.ts";
import { EntityDecisions, snapshotOf } from "./entity-decisions.ts";
import { entityFailureReason } from "./entity-failure.ts";
import type { BridgeNode } from "./node.ts";

export interface ExposedEntity extends ExposedDevice {
  key: DeviceTypeKey;
  endpoint: Endpoint;
  /** The companion entities composed into the endpoint, by role. */
  companions: CompanionIds;
  off: () => void;
}

/** What a bridge's entity devices are built with; the runtime tells them of its node and configuration as they change. */
export interface EntityDevicesOptions {
  ha: HomeAssistantService;
  mappings: EntityMappingStore;
  pinCheck: PinCheck | undefined;
  identities: EndpointIdentities;
  log: Logger;
  /** The bridge's plugin host (its domain mappings decide some device types); undefined without plugins. */
  plugins: PluginHostForBridge | undefined;
  /** The bridge's queue of structural work: retries and rebuilds run in it, after what is pending. */
  serial<T>(task: () => Promise<T>): Promise<T>;
  /** The device set changed (the bridge's record). */
  changed(): void;
  /** One device took a new Home Assistant state (its row of the device list). */
  deviceChanged(entityId: string): void;
}

/**
 * The HA entities of one bridge as Matter devices: which are exposed, skipped (with the reason) or failed (retried
 * on their next HA state), kept in line with HA, the filter and the entity mappings one entity at a time. State
 * changes reach only the endpoint of the entity that changed.
 */
export class EntityDevices {
  readonly #exposed = new Map<string, ExposedEntity>();
  readonly #skipped = new Map<string, { name: string; reason: string }>();
  /** Entities whose device could not be built; each is retried when its HA state changes (`off` stops that). */
  readonly #failed = new Map<string, { name: string; reason: string; off: () => void }>();
  /** Entities the filter selects that are part of another entity's endpoint (composition.ts): that entity's id. */
  readonly #composed = new Map<string, { name: string; into: string }>();
  readonly #links: CompanionLinks;
  /** HA state writes of one turn share one transaction per node (state-writer.ts). */
  readonly writer = new StateWriter();
  readonly #decisions: EntityDecisions;
  readonly #options: EntityDevicesOptions;
  #config: BridgeConfig;
  #filter: CompiledFilter;
  /** The running (or starting) node; undefined while stopped. */
  #node: BridgeNode | undefined;
  /** The node is up: a new device's identity is saved before controllers see it. */
  #running = false;

  constructor(options: EntityDevicesOptions, config: BridgeConfig, filter: CompiledFilter) {
    this.#options = options;
    this.#links = new CompanionLinks(options.ha.model, (id) => this.snapshot(viewEntity(options.ha.model, id), id));
    this.#decisions = new EntityDecisions(
      { model: options.ha.model, mappings: options.mappings, plugins: options.plugins },
      config,
      filter,
    );
    this.#config = config;
    this.#filter = filter;
  }

  /** The bridge's configuration or filter changed; the caller reconciles what it affects. */
  configure(config: BridgeConfig, filter: CompiledFilter): void {
    this.#config = config;
    this.#filter = filter;
    this.#decisions.configure(config, filter);
  }

  /** The node devices go on from now on (created, not yet started); {@link clear} lets it go. */
  attach(node: BridgeNode): void {
    this.#node = node;
  }

  /** The bridge's status changed: while running, a new device's identity is saved before the device is added. */
  setRunning(running: boolean): void {
    this.#running = running;
  }

  /** Exposed devices. */
  get size(): number {
    return this.#exposed.size;
  }

  /** The exposed devices now, for force-sync (read inside the bridge's queue). */
  exposed(): ReadonlyMap<string, ExposedEntity> {
    return this.#exposed;
  }

  /** The three sets, as the device rows read them. */
  sets(): DeviceSets {
    return { exposed: this.#exposed, skipped: this.#skipped, failed: this.#failed, composed: this.#composed };
  }

  /** Every entity id that may need a look: HA's and those the bridge knows of. */
  candidates(): Set<string> {
    return new Set([
      ...this.#options.ha.model.entityIds(),
      ...this.#exposed.keys(),
      ...this.#skipped.keys(),
      ...this.#failed.keys(),
      ...this.#composed.keys(),
    ]);
  }

  /**
   * Reconciles entities whose HA structure or mapping changed, with the entities whose composition they may change:
   * the other entities of their HA devices and the endpoints carrying them. Removals first: a renamed entity hands
   * its endpoint id on.
   */
  async reconcileChanged(ids: Iterable<string>): Promise<void> {
    const all = new Set(ids);
    const model = this.#options.ha.model;
    for (const id of [...all]) {
      for (const carrier of this.#links.carriersOf(id)) all.add(carrier);
      const deviceId = model.entities.get(id)?.device_id;
      if (deviceId) for (const sibling of model.entityIdsOfDevice(deviceId)) all.add(sibling);
    }
    const sorted = [...all].sort((a, b) => Number(this.#exposed.has(b)) - Number(this.#exposed.has(a)));
    for (const id of sorted) await this.reconcile(id);
  }

  /** The node started without these devices (matter.js refused them, with the error): they are listed as failed. */
  dropFailedAtStart(failedDevices: ReadonlyMap<string, unknown>): void {
    for (const [entityId, exposed] of [...this.#exposed]) {
      if (!failedDevices.has(exposed.endpointId)) continue;
      exposed.off();
      this.#exposed.delete(entityId);
      this.#markFailed(entityId, exposed.name, failedDevices.get(exposed.endpointId), undefined);
    }
  }

  /** Brings one entity's device in line with HA, the filter and its mapping. One failing entity never fails the bridge. */
  async reconcile(entityId: string): Promise<void> {
    const node = this.#node;
    if (!node) return;
    const view = viewEntity(this.#options.ha.model, entityId);
    const mapping = this.#options.mappings.get(this.#config.id, entityId);
    const exposed = this.#exposed.get(entityId);
    this.#skipped.delete(entityId);
    this.#composed.delete(entityId);
    const previousFailure = this.#failed.get(entityId)?.reason;
    this.#failed.get(entityId)?.off();
    this.#failed.delete(entityId);
    const name = cutUtf8(mapping?.customName || view?.name || entityId);
    const skip = async (reason: string | undefined) => {
      if (exposed) await this.#remove(entityId, exposed);
      if (reason) this.#skipped.set(entityId, { name, reason });
    };
    if (!view || !this.#filter.matches(view)) return skip(undefined);
    if (mapping?.disabled) return skip("disabled in the entity mapping");
    if (!view.state) return skip("Home Assistant has no state for this entity");
    const plan = this.#decisions.plan(entityId);
    const carrier = plan.carriedBy.get(entityId);
    if (carrier) {
      // Part of another entity's endpoint (its battery, its power meter): not a device of its own.
      if (exposed) await this.#remove(entityId, exposed);
      this.#composed.set(entityId, { name, into: carrier });
      return;
    }
    const decision = this.#decisions.decide(view, name);
    if ("unsupported" in decision) return skip(decision.unsupported);
    const companions = plan.carriers.get(entityId) ?? {};
    // The identity decides the endpoint: an entity whose registry entry showed up late gets its own endpoint back.
    const endpointId = this.#options.identities.endpointIdFor(view);
    // A running node shows a new device to controllers at once: its identity is saved first. While starting, the
    // identities are saved once, before the node starts.
    if (this.#running) await this.#options.identities.flush();
    if (
      exposed &&
      exposed.key === decision.key &&
      exposed.endpointId === endpointId &&
      JSON.stringify(exposed.companions) === JSON.stringify(companions)
    ) {
      exposed.name = name;
      await this.#update(entityId, exposed);
      return;
    }
    // A new device type or new companions: the same endpoint id (and so number) with the new clusters.
    if (exposed) await this.#remove(entityId, exposed);
    try {
      await this.#add(view, endpointId, decision.key, name, companions);
    } catch (error) {
      this.#markFailed(entityId, name, error, previousFailure);
    }
  }

  /**
   * A companion's HA state changed: the carrier's endpoint shows the new value. A companion that no longer plays its
   * role (another unit, another class) makes both be planned again.
   */
  #companionChanged(carrierId: string, companionId: string, role: CompanionRole): void {
    const state = this.#options.ha.model.states.get(companionId);
    if (state && companionRoleOf(companionId.slice(0, companionId.indexOf(".")), state) !== role) {
      void this.#options.serial(async () => {
        await this.reconcileChanged([carrierId, companionId]);
        this.#options.changed();
      });
      return;
    }
    const exposed = this.#exposed.get(carrierId);
    if (exposed) void this.#update(carrierId, exposed);
    this.#options.deviceChanged(companionId);
  }

  /** Lists the entity as failed with the reason, and retries it on its next HA state (HA may fix the bad value). */
  #markFailed(entityId: string, name: string, error: unknown, previousFailure: string | undefined): void {
    const off = this.#options.ha.model.onEntity(entityId, () => void this.#options.serial(() => this.#retryFailed(entityId)));
    const reason = entityFailureReason(error);
    this.#failed.set(entityId, { name, reason, off });
    // Once per reason: a sensor failing the same way on every update must not flood the log.
    if (reason === previousFailure) this.#options.log.debug({ entityId, reason }, `still cannot expose ${entityId}`);
    else this.#options.log.warn({ entityId, reason, err: error }, `could not expose ${entityId}: ${reason}`);
  }

  async #add(view: EntityView, endpointId: string, key: DeviceTypeKey, name: string, companionIds: CompanionIds): Promise<void> {
    const node = this.#node;
    if (!node) throw new Error("the bridge is not running");
    // The same identity may still be attached under an old entity id (a rename in one batch): detach it.
    for (const [otherId, other] of this.#exposed) if (other.endpointId === endpointId) await this.#remove(otherId, other);
    const endpoint = await createEntityEndpoint({
      bridge: this.#config,
      view,
      endpointId,
      key,
      snapshot: this.snapshot(view, name),
      companions: this.#links.snapshots(companionIds),
      ha: this.#options.ha,
      pinCheck: this.#options.pinCheck,
    });
    await node.addDevice(endpoint);
    const entityId = view.entityId;
    const model = this.#options.ha.model;
    const exposed: ExposedEntity = { endpointId, key, name, endpoint, companions: companionIds, off: () => undefined };
    const offEntity = model.onEntity(entityId, () => void this.#update(entityId, exposed));
    const unlink = this.#links.link(entityId, companionIds, (id, role) => this.#companionChanged(entityId, id, role));
    exposed.off = () => {
      offEntity();
      unlink();
    };
    this.#exposed.set(entityId, exposed);
  }

  async #remove(entityId: string, exposed: ExposedEntity): Promise<void> {
    exposed.off();
    this.#exposed.delete(entityId);
    await this.#node
      ?.removeDevice(exposed.endpointId)
      .catch((error: unknown) => this.#options.log.warn({ err: error, entityId }, "remove failed"));
  }

  /** Pushes HA's current state to the endpoint; never awaited on the path that delivers HA call results. */
  async #update(entityId: string, exposed: ExposedEntity): Promise<void> {
    const view = viewEntity(this.#options.ha.model, entityId);
    if (!view) return;
    try {
      const companions = this.#links.snapshots(exposed.companions);
      const snapshot = this.snapshot(view, exposed.name);
      const result = await updateDeviceEndpoint(exposed.endpoint, snapshot, companions, this.writer);
      if (result.rebuild) void this.#options.serial(() => this.rebuild(entityId));
    } catch (error) {
      this.#options.log.warn({ entityId, err: error }, "could not update a device");
    }
    this.#options.deviceChanged(entityId);
  }

  async #retryFailed(entityId: string): Promise<void> {
    if (!this.#failed.has(entityId)) return;
    await this.reconcile(entityId);
    if (!this.#failed.has(entityId)) this.#options.changed();
  }

  /** The entity's capabilities changed: same endpoint id (and number), new clusters. */
  async rebuild(entityId: string): Promise<void> {
    const exposed = this.#exposed.get(entityId);
    if (!exposed) return;
    await this.#remove(entityId, exposed);
    await this.reconcile(entityId);
    this.#options.changed();
  }

  snapshot(view: EntityView | undefined, name: string): EntitySnapshot {
    return snapshotOf(view, name);
  }

  /** Forgets every device and the node (it is gone or going). */
  clear(): void {
    for (const exposed of this.#exposed.values()) exposed.off();
    for (const failed of this.#failed.values()) failed.off();
    this.#exposed.clear();
    this.#skipped.clear();
    this.#failed.clear();
    this.#composed.clear();
    this.#node = undefined;
  }
}
