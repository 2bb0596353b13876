/**
 * The built-in plugins (docs/plugins.md "Built-in plugins"): no installation, listed on every standard bridge,
 * enabled by default, and no devices until configured. What they get from the hub besides the plugin API is the
 * BuiltinServices of builtin-services.ts.
 */
import type { BuiltinPluginDefinition } from "../builtin-services.ts";
import { APPLIANCE_PLUGIN, ApplianceCloudPlugin } from "./appliance-cloud/appliance-plugin.ts";
import type { ApplianceCloudClient } from "./appliance-cloud/cloud-client.ts";
import { VeSyncClient } from "./appliance-cloud/vesync-client.ts";
import { CAMERA_PLUGIN, CameraPlugin } from "./camera/camera-plugin.ts";
import { SECURITY_PLUGIN, SecurityPlugin } from "./security/security-plugin.ts";

export interface BuiltinOptions {
  /** A cloud client per appliance-cloud instance; default the VeSync-style client against the vendor's API. */
  cloudClient?: (() => ApplianceCloudClient) | undefined;
}

export function builtinPlugins(options: BuiltinOptions = {}): BuiltinPluginDefinition[] {
  return [
    {
      name: CAMERA_PLUGIN,
      displayName: "Camera",
      version: "1.0.0",
      description: "Home Assistant cameras as Matter cameras: live view through HA's WebRTC, snapshots",
      experimental: true,
      create: (services) => new CameraPlugin(services),
    },
    {
      name: SECURITY_PLUGIN,
      displayName: "Security",
      version: "1.0.0",
      description: "Local alarm: Home, Away, Night and Vacation switches and an Alarm contact sensor",
      experimental: true,
      create: (services) => new SecurityPlugin(services),
    },
    {
      name: APPLIANCE_PLUGIN,
      displayName: "Appliance cloud",
      version: "1.0.0",
      description: "Cloud appliances (air fryers, purifiers, fans, humidifiers, plugs) through a VeSync-style account",
      experimental: true,
      create: (services) => new ApplianceCloudPlugin(services, options.cloudClient?.() ?? new VeSyncClient()),
    },
  ];
}
