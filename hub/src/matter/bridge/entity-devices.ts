import type { Endpoint } from "@matter/main";
import type { Logger } from "../../../../lib/logger.ts";
import type { BridgeConfig } from "../../bridges/bridge-config.ts";
import type { EndpointIdentities } from "../../bridges/endpoint-identities.ts";
import type { CompiledFilter } from "../../bridges/filter.ts";
import type { EntityMappingStore } from "../../entity-mappings/entity-mapping-store.ts";
import { type EntityView, viewEntity } from "../../home-assistant/entity-view.ts";
import type { HomeAssistantService } from "../../home-assistant/home-assistant-service.ts";
import { mapEntity } from "../devices/domain-table.ts";
import { updateDeviceEndpoint } from "../devices/endpoint-types.ts";
import { cutUtf8 } from "../matter-strings.ts";
import type { DeviceTypeKey, EntitySnapshot, PinCheck } from "../model/contract.ts";
import { resolveEntityMapping } from "../plugin-devices/plugin-mount.ts";
import type { PluginHostForBridge } from "../plugin-devices/seam.ts";
import { createEntityEndpoint } from "./builders.ts";
import type { DeviceSets, ExposedDevice } from "./device-rows.ts";
import { entityFailureReason } from "./entity-failure.ts";
import type { BridgeNode } from "./node.ts";

export interface ExposedEntity extends ExposedDevice {
  key: DeviceTypeKey;
  endpoint: Endpoint;
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
  readonly #options: EntityDevicesOptions;
  #config: BridgeConfig;
  #filter: CompiledFilter;
  /** The running (or starting) node; undefined while stopped. */
  #node: BridgeNode | undefined;
  /** The node is up: a new device's identity is saved before controllers see it. */
  #running = false;

  constructor(options: EntityDevicesOptions, config: BridgeConfig, filter: CompiledFilter) {
    this.#options = options;
    this.#config = config;
    this.#filter = filter;
  }

  /** The bridge's configuration or filter changed; the caller reconciles what it affects. */
  configure(config: BridgeConfig, filter: CompiledFilter): void {
    this.#config = config;
    this.#filter = filter;
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
    return { exposed: this.#exposed, skipped: this.#skipped, failed: this.#failed };
  }

  /** Every entity id that may need a look: HA's and those the bridge knows of. */
  candidates(): Set<string> {
    return new Set([
      ...this.#options.ha.model.entityIds(),
      ...this.#exposed.keys(),
      ...this.#skipped.keys(),
      ...this.#failed.keys(),
    ]);
  }

  /** Reconciles entities whose HA structure changed. Removals first: a renamed entity hands its endpoint id on. */
  async reconcileChanged(ids: Iterable<string>): Promise<void> {
    const sorted = [...ids].sort((a, b) => Number(this.#exposed.has(b)) - Number(this.#exposed.has(a)));
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
    const override = (mapping?.matterDeviceType as DeviceTypeKey | null) ?? null;
    const plugins = this.#options.plugins;
    const decision = plugins
      ? resolveEntityMapping(this.snapshot(view, name), override, (domain) => plugins.mappingFor(domain))
      : mapEntity(this.snapshot(view, name), override);
    if ("unsupported" in decision) return skip(decision.unsupported);
    // The identity decides the endpoint: an entity whose registry entry showed up late gets its own endpoint back.
    const endpointId = this.#options.identities.endpointIdFor(view);
    // A running node shows a new device to controllers at once: its identity is saved first. While starting, the
    // identities are saved once, before the node starts.
    if (this.#running) await this.#options.identities.flush();
    if (exposed && exposed.key === decision.key && exposed.endpointId === endpointId) {
      exposed.name = name;
      await this.#update(entityId, exposed);
      return;
    }
    if (exposed) await this.#remove(entityId, exposed);
    try {
      await this.#add(view, endpointId, decision.key, name);
    } catch (error) {
      this.#markFailed(entityId, name, error, previousFailure);
    }
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

  async #add(view: EntityView, endpointId: string, key: DeviceTypeKey, name: string): Promise<void> {
    const node = this.#node;
    if (!node) throw new Error("the bridge is not running");
    // The same identity may still be attached under an old entity id (a rename in one batch): detach it.
    for (const [otherId, other] of this.#exposed) if (other.endpointId === endpointId) await this.#remove(otherId, other);
    const endpoint = createEntityEndpoint({
      bridge: this.#config,
      view,
      endpointId,
      key,
      snapshot: this.snapshot(view, name),
      ha: this.#options.ha,
      pinCheck: this.#options.pinCheck,
    });
    await node.addDevice(endpoint);
    const entityId = view.entityId;
    const exposed: ExposedEntity = { endpointId, key, name, endpoint, off: () => undefined };
    exposed.off = this.#options.ha.model.onEntity(entityId, () => void this.#update(entityId, exposed));
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
      const result = await updateDeviceEndpoint(exposed.endpoint, this.snapshot(view, exposed.name));
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
    const entityId = view?.entityId ?? "";
    return { entityId, domain: entityId.slice(0, entityId.indexOf(".")), state: view?.state, name };
  }

  /** Forgets every device and the node (it is gone or going). */
  clear(): void {
    for (const exposed of this.#exposed.values()) exposed.off();
    for (const failed of this.#failed.values()) failed.off();
    this.#exposed.clear();
    this.#skipped.clear();
    this.#failed.clear();
    this.#node = undefined;
  }
}
