/**
 * What a bridge decides per entity before building anything: the device type it maps to (mapping override, plugin
 * mappings, the domain table) and the composition plan of its HA device (composition.ts). Both read the bridge's
 * current configuration, filter and mappings, and nothing else, so they can be asked about any entity at any time.
 */
import type { BridgeConfig } from "../../bridges/bridge-config.ts";
import { leftOutReason } from "../../bridges/controller-checks.ts";
import type { CompiledFilter } from "../../bridges/filter.ts";
import type { EntityMappingStore } from "../../entity-mappings/entity-mapping-store.ts";
import { type EntityView, viewEntity } from "../../home-assistant/entity-view.ts";
import type { HomeAssistantModel } from "../../home-assistant/ha-model.ts";
import { mapEntity } from "../devices/domain-table.ts";
import type { DeviceTypeKey, EntitySnapshot, MappingDecision } from "../model/contract.ts";
import { resolveEntityMapping } from "../plugin-devices/plugin-mount.ts";
import type { PluginHostForBridge } from "../plugin-devices/seam.ts";
import { type DevicePlan, EMPTY_PLAN, planFor } from "./composition.ts";

/** The snapshot the device layer gets of an entity (`name` already chosen and cut by the caller). */
export function snapshotOf(view: EntityView | undefined, name: string): EntitySnapshot {
  const entityId = view?.entityId ?? "";
  return { entityId, domain: entityId.slice(0, entityId.indexOf(".")), state: view?.state, name };
}

export class EntityDecisions {
  readonly #model: HomeAssistantModel;
  readonly #mappings: EntityMappingStore;
  readonly #plugins: PluginHostForBridge | undefined;
  #config: BridgeConfig;
  #filter: CompiledFilter;

  constructor(
    deps: { model: HomeAssistantModel; mappings: EntityMappingStore; plugins: PluginHostForBridge | undefined },
    config: BridgeConfig,
    filter: CompiledFilter,
  ) {
    this.#model = deps.model;
    this.#mappings = deps.mappings;
    this.#plugins = deps.plugins;
    this.#config = config;
    this.#filter = filter;
  }

  configure(config: BridgeConfig, filter: CompiledFilter): void {
    this.#config = config;
    this.#filter = filter;
  }

  /**
   * The device type the entity maps to on this bridge, or why not. A type the bridge leaves out for its controllers
   * (controller-checks.ts) is unsupported here with that reason, so it is skipped and never carries a composition.
   */
  decide(view: EntityView, name: string): MappingDecision {
    const mapping = this.#mappings.get(this.#config.id, view.entityId);
    const override = (mapping?.matterDeviceType as DeviceTypeKey | null) ?? null;
    const plugins = this.#plugins;
    const decision = plugins
      ? resolveEntityMapping(snapshotOf(view, name), override, (domain) => plugins.mappingFor(domain))
      : mapEntity(snapshotOf(view, name), override);
    const leftOut = "key" in decision ? leftOutReason(this.#config, decision.key) : undefined;
    return leftOut ? { unsupported: leftOut } : decision;
  }

  /** The composition plan of the entity's HA device on this bridge; empty when the bridge does not compose. */
  plan(entityId: string): DevicePlan {
    if (!this.#config.composeDevices) return EMPTY_PLAN;
    const bridgeId = this.#config.id;
    const keyOf = (id: string): DeviceTypeKey | undefined => {
      const view = viewEntity(this.#model, id);
      if (!view?.state || !this.#filter.matches(view) || this.#mappings.get(bridgeId, id)?.disabled) return undefined;
      const decision = this.decide(view, view.name);
      return "key" in decision ? decision.key : undefined;
    };
    const excluded = (id: string) => {
      const mapping = this.#mappings.get(bridgeId, id);
      return mapping?.detached === true || mapping?.disabled === true;
    };
    return planFor({ model: this.#model, keyOf, excluded }, entityId);
  }
}
