import { request } from "../../../common/http.ts";
import type {
  Bridge,
  BridgeAction,
  BridgeDeviceInfo,
  BridgeFilter,
  BridgeInput,
  CommissioningWindow,
  ControllerInfo,
  EndpointInspection,
  FilterPreview,
  FilterValues,
  ForceSyncReport,
  PluginDeviceInfo,
  PreviewSettings,
  SplitBy,
  SplitProposal,
} from "./types.ts";

/** The hub's own list (`BRIDGE_ACTIONS` in its contract), so a new action cannot be missing here. */
export type { BridgeAction };

const bridgePath = (id: string) => `api/matter/bridges/${encodeURIComponent(id)}`;

export const listBridges = (signal?: AbortSignal) => request<Bridge[]>("api/matter/bridges", { signal });
export const getBridge = (id: string, signal?: AbortSignal) => request<Bridge>(bridgePath(id), { signal });
export const createBridge = (input: BridgeInput) => request<Bridge>("api/matter/bridges", { method: "POST", body: input });
export const updateBridge = (id: string, input: Partial<BridgeInput>) =>
  request<Bridge>(bridgePath(id), { method: "PUT", body: input });
export const deleteBridge = (id: string) => request<void>(bridgePath(id), { method: "DELETE" });
export const cloneBridge = (id: string) => request<Bridge>(`${bridgePath(id)}/clone`, { method: "POST" });

export const bridgeAction = (id: string, action: BridgeAction) =>
  request<{ bridge: Bridge; commissioningWindow?: CommissioningWindow; sync?: ForceSyncReport }>(
    `${bridgePath(id)}/actions/${action}`,
    { method: "POST" },
  );

export const allBridgesAction = (action: "start" | "stop" | "restart") =>
  request<{ results: { id: string; ok: boolean; error?: string }[]; bridges: Bridge[] }>(
    `api/matter/bridges/actions/${action}-all`,
    { method: "POST" },
  );

export const setPriorities = (updates: { id: string; priority: number }[]) =>
  request<Bridge[]>("api/matter/bridges/priorities", { method: "PUT", body: { updates } });

export interface BridgeDevicesResponse {
  bridgeId: string;
  devices: BridgeDeviceInfo[];
  total: number;
  pluginDevices: PluginDeviceInfo[];
}
export const bridgeDevices = (id: string, signal?: AbortSignal) =>
  request<BridgeDevicesResponse>(`${bridgePath(id)}/devices`, { signal });

export const nextPort = () => request<{ port: number }>("api/matter/next-port");
export const filterValues = (signal?: AbortSignal) => request<FilterValues>("api/matter/filter-values", { signal });
export const filterPreview = (filter: BridgeFilter, limit: number, settings?: PreviewSettings, signal?: AbortSignal) =>
  request<FilterPreview>("api/matter/filter-preview", { method: "POST", body: { filter, limit, ...settings }, signal });

/** The table of controller limits and known gaps, with sources. */
export const controllerTable = (signal?: AbortSignal) => request<ControllerInfo[]>("api/matter/controllers", { signal });

export const splitPreview = (id: string, by: SplitBy, signal?: AbortSignal) =>
  request<SplitProposal>(`${bridgePath(id)}/split/preview`, { method: "POST", body: { by }, signal });
export const confirmSplit = (id: string, body: { by: SplitBy; token: string; keepOriginalRunning: boolean }) =>
  request<{ created: Bridge[]; original: Bridge }>(`${bridgePath(id)}/split`, { method: "POST", body });

/** The device inspector: one endpoint of a running bridge as controllers read it. */
export const inspectEndpoint = (id: string, endpointNumber: number, signal?: AbortSignal) =>
  request<EndpointInspection>(`${bridgePath(id)}/endpoints/${endpointNumber}`, { signal });
