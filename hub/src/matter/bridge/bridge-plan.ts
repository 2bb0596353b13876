/**
 * A bridge's devices decided without a node (bridges/bridge-runtime.ts BridgePlanner): the same steps as
 * EntityDevices.reconcile (filter, entity mapping, composition, device type and leave-outs, all through
 * EntityDecisions), for the filter preview, the controller checks of a stopped bridge and the split proposal.
 */
import type { BridgeConfig } from "../../bridges/bridge-config.ts";
import type { PlannedEntity } from "../../bridges/bridge-runtime.ts";
import { compileFilter } from "../../bridges/filter.ts";
import type { EntityMappingStore } from "../../entity-mappings/entity-mapping-store.ts";
import { viewEntity } from "../../home-assistant/entity-view.ts";
import type { HomeAssistantModel } from "../../home-assistant/ha-model.ts";
import { cutUtf8 } from "../matter-strings.ts";
import type { CompanionRole } from "../model/contract.ts";
import { EntityDecisions } from "./entity-decisions.ts";

/** One row per entity the configuration's filter selects, sorted by entity id. */
export function planBridge(
  deps: { model: HomeAssistantModel; mappings: EntityMappingStore },
  config: BridgeConfig,
): PlannedEntity[] {
  const { model, mappings } = deps;
  const filter = compileFilter(config.filter, model);
  const decisions = new EntityDecisions({ model, mappings, plugins: undefined }, config, filter);
  const rows: PlannedEntity[] = [];
  for (const entityId of [...model.entityIds()].sort()) {
    const view = viewEntity(model, entityId);
    if (!view || !filter.matches(view)) continue;
    const mapping = mappings.get(config.id, entityId);
    const name = cutUtf8(mapping?.customName || view.name || entityId);
    const row: PlannedEntity = { entityId, name, deviceType: null, composedInto: null, skipped: null, carries: [] };
    rows.push(row);
    if (mapping?.disabled) row.skipped = "disabled in the entity mapping";
    else if (!view.state) row.skipped = "Home Assistant has no state for this entity";
    if (row.skipped) continue;
    const plan = decisions.plan(entityId);
    const carrier = plan.carriedBy.get(entityId);
    if (carrier) {
      row.composedInto = carrier;
      continue;
    }
    const decision = decisions.decide(view, name);
    if ("unsupported" in decision) {
      row.skipped = decision.unsupported;
      continue;
    }
    row.deviceType = decision.key;
    row.carries = Object.keys(plan.carriers.get(entityId) ?? {}) as CompanionRole[];
  }
  return rows;
}
