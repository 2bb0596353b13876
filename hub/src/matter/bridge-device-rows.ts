import type { BridgeDeviceInfo } from "../bridges/bridge-runtime.ts";
import type { HomeAssistantModel } from "../home-assistant/ha-model.ts";

/** What the device list needs to know about an exposed entity. */
export interface ExposedDevice {
  endpointId: string;
  key: string;
  name: string;
  endpoint: { maybeNumber?: number | undefined };
}

type Reasons = ReadonlyMap<string, { name: string; reason: string }>;

/**
 * The rows of `GET /api/matter/bridges/:id/devices`: exposed entities with their Matter endpoint, then skipped and
 * failed ones with the reason, sorted by entity id.
 */
export function deviceRows(
  model: HomeAssistantModel,
  exposed: ReadonlyMap<string, ExposedDevice>,
  skipped: Reasons,
  failed: Reasons,
): BridgeDeviceInfo[] {
  const stateOf = (entityId: string) => model.states.get(entityId);
  const rows: BridgeDeviceInfo[] = [...exposed].map(([entityId, device]) => {
    const state = stateOf(entityId);
    return {
      entityId,
      name: device.name,
      deviceType: device.key,
      endpointId: device.endpointId,
      endpointNumber: device.endpoint.maybeNumber ?? null,
      reachable: state !== undefined && state.state !== "unavailable",
      state: state?.state ?? null,
      skipped: null,
      failed: null,
    };
  });
  const unexposed = (reasons: Reasons, field: "skipped" | "failed") =>
    [...reasons].map(([entityId, { name, reason }]) => ({
      entityId,
      name,
      deviceType: null,
      endpointId: null,
      endpointNumber: null,
      reachable: false,
      state: stateOf(entityId)?.state ?? null,
      skipped: field === "skipped" ? reason : null,
      failed: field === "failed" ? reason : null,
    }));
  rows.push(...unexposed(skipped, "skipped"), ...unexposed(failed, "failed"));
  return rows.sort((a, b) => a.entityId.localeCompare(b.entityId));
}
