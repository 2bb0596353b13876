/**
 * `/api/plugins` (docs/plugins.md "Endpoints" and "HTTP bodies"). The hub pushes no plugin
 * changes over `/api/ws`, so the page reloads the list itself while something is in progress.
 */

import type { InstalledPackage, PluginConfigSchema, SlotInfo } from "../../../../hub/src/contract.ts";
import { request } from "../../../common/http.ts";
import type { BridgeStatus } from "./types.ts";

export type { PluginConfigSchema };
export type PluginConfigProperty = PluginConfigSchema["properties"][string];
/** One plugin on one bridge. */
export type BridgePlugin = SlotInfo;
export type PluginState = SlotInfo["state"];

/** An installed package with what the catalog knows about it now. */
export interface PluginPackage extends InstalledPackage {
  status: "installed" | "reinstalling" | "unavailable";
  error: string | null;
  apiVersionMismatch: boolean;
  loadedVersion: string | null;
  restartRequired: boolean;
}

export interface BuiltinPlugin {
  name: string;
  /** What the UI calls it ("Appliance cloud"); `name` is its id. */
  displayName: string;
  version: string;
  description: string;
  experimental: boolean;
}

export interface BridgePlugins {
  bridgeId: string;
  bridgeName: string;
  bridgeStatus: BridgeStatus;
  serverMode: boolean;
  note: string | null;
  plugins: BridgePlugin[];
  domainMappings: { domain: string; matterDeviceType: string; plugin: string }[];
}

export interface PluginsOverview {
  apiVersion: number;
  builtin: BuiltinPlugin[];
  packages: PluginPackage[];
  bridges: BridgePlugins[];
}

export interface InstallResult {
  package: InstalledPackage;
  restartRequired: boolean;
}

export interface ConfigResult {
  bridgeId: string;
  applied: boolean;
  error: string | null;
  plugin: BridgePlugin;
}

const slotPath = (bridgeId: string, plugin: string) =>
  `api/plugins/${encodeURIComponent(bridgeId)}/${encodeURIComponent(plugin)}`;

export const listPlugins = (signal?: AbortSignal) => request<PluginsOverview>("api/plugins", { signal });

export const installPlugin = (packageName: string) =>
  request<InstallResult>("api/plugins/install", { method: "POST", body: { packageName } });
export const linkLocalPlugin = (path: string) =>
  request<InstallResult>("api/plugins/install-local", { method: "POST", body: { path } });
export const uninstallPlugin = (packageName: string) =>
  request<{ uninstalled: string }>("api/plugins/uninstall", { method: "POST", body: { packageName } });

/** The archive goes as the raw body (`application/octet-stream`), the way the hub's upload route takes it. */
export const uploadPlugin = (archive: Blob) =>
  request<InstallResult>("api/plugins/upload", { method: "POST", body: archive, contentType: "application/octet-stream" });

export const pluginAction = (bridgeId: string, plugin: string, action: "enable" | "disable" | "reset") =>
  request<{ bridgeId: string; plugin: BridgePlugin }>(`${slotPath(bridgeId, plugin)}/${action}`, { method: "POST" });

export const pluginConfigSchema = (bridgeId: string, plugin: string, signal?: AbortSignal) =>
  request<{ bridgeId: string; plugin: string; schema: PluginConfigSchema | null }>(
    `${slotPath(bridgeId, plugin)}/config-schema`,
    {
      signal,
    },
  );

export const savePluginConfig = (bridgeId: string, plugin: string, config: Record<string, unknown>) =>
  request<ConfigResult>(`${slotPath(bridgeId, plugin)}/config`, { method: "POST", body: { config } });
