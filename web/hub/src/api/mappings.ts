import { request } from "../../../common/http.ts";
import type { DeviceTypeChoices, DeviceTypeKey, EntityMapping } from "./types.ts";

export interface MappingInput {
  matterDeviceType: DeviceTypeKey | null;
  customName: string | null;
  disabled: boolean;
  /** Only sent for a companion entity (composed, or detached before): expose it on its own. */
  detached?: boolean;
}

const path = (bridgeId: string, entityId?: string) =>
  `api/entity-mappings/${encodeURIComponent(bridgeId)}${entityId ? `/${encodeURIComponent(entityId)}` : ""}`;

export const listMappings = (bridgeId: string, signal?: AbortSignal) =>
  request<{ bridgeId: string; mappings: EntityMapping[] }>(path(bridgeId), { signal });
export const putMapping = (bridgeId: string, entityId: string, input: MappingInput) =>
  request<EntityMapping>(path(bridgeId, entityId), { method: "PUT", body: input });
/** The device types a mapping of this entity may choose (the hub's own check, the one PUT makes). */
export const deviceTypeChoices = (bridgeId: string, entityId: string, signal?: AbortSignal) =>
  request<DeviceTypeChoices>(`${path(bridgeId, entityId)}/device-types`, { signal });
export const deleteMapping = (bridgeId: string, entityId: string) =>
  request<void>(path(bridgeId, entityId), { method: "DELETE" });
