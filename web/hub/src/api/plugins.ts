/**
 * `/api/plugins` (docs/plugins.md "Endpoints" and "HTTP bodies"). The hub pushes no plugin
 * changes over `/api/ws`, so the page reloads the list itself while something is in progress.
 */

import type {
  InstallEvent,
  InstalledPackage,
  InstallJobView,
  InstallPhase,
  PluginConfigSchema,
  SlotInfo,
} from "../../../../hub/src/contract.ts";
import { apiUrl, request } from "../../../common/http.ts";
import type { BridgeStatus } from "./types.ts";

export type { InstallEvent, InstallJobView, InstallPhase, PluginConfigSchema };
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
  /** E.g. a plugin API version this hub does not implement (installed and loaded anyway). */
  warnings: string[];
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

export const linkLocalPlugin = (path: string) =>
  request<InstallResult>("api/plugins/install-local", { method: "POST", body: { path } });
export const uninstallPlugin = (packageName: string) =>
  request<{ uninstalled: string }>("api/plugins/uninstall", { method: "POST", body: { packageName } });

/**
 * Installs as jobs (docs/plugins.md "Install progress, cancel and failures"): start one, follow its progress as
 * Server-Sent Events, read it again after a reload, cancel it.
 */
export const startInstall = (packageName: string) =>
  request<InstallJobView>("api/plugins/installs", { method: "POST", body: { packageName } });
export const startUploadInstall = (archive: File) =>
  request<InstallJobView>(`api/plugins/installs/upload?file=${encodeURIComponent(archive.name)}`, {
    method: "POST",
    body: archive,
    contentType: "application/octet-stream",
  });
export const listInstalls = (signal?: AbortSignal) => request<{ installs: InstallJobView[] }>("api/plugins/installs", { signal });
export const getInstall = (id: string, signal?: AbortSignal) =>
  request<InstallJobView>(`api/plugins/installs/${encodeURIComponent(id)}`, { signal });
export const cancelInstall = (id: string) =>
  request<InstallJobView>(`api/plugins/installs/${encodeURIComponent(id)}`, { method: "DELETE" });
/** The job's progress stream; `after` skips the lines already shown. */
export const installEventsUrl = (id: string, after: number) =>
  apiUrl(`api/plugins/installs/${encodeURIComponent(id)}/events?after=${after}`);

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
