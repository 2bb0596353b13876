/**
 * The built-in plugins (hub-plugins.md "Built-in plugins"): no installation, listed on every standard bridge,
 * enabled by default, and no devices until configured.
 */
import type { Logger } from "../../../../lib/logger.ts";
import type { HomeAssistantService } from "../../home-assistant/home-assistant-service.ts";
import type { BuiltinPluginDefinition } from "../plugin-source.ts";
import { APPLIANCE_PLUGIN, ApplianceCloudPlugin } from "./appliance-cloud/appliance-plugin.ts";
import type { ApplianceCloudClient } from "./appliance-cloud/cloud-client.ts";
import { VeSyncClient } from "./appliance-cloud/vesync-client.ts";
import { type CameraHaFactory, cameraHaFactory } from "./camera/camera-ha.ts";
import { CAMERA_PLUGIN, CameraPlugin } from "./camera/camera-plugin.ts";
import { type HaAccessFactory, haAccessFactory } from "./ha-access.ts";
import { SECURITY_PLUGIN, SecurityPlugin } from "./security/security-plugin.ts";

export interface BuiltinDeps {
  /** How the security plugin reaches Home Assistant. */
  openHa: HaAccessFactory;
  /** How the camera plugin reaches Home Assistant (WebRTC signalling and camera images). */
  openCameraHa: CameraHaFactory;
  /** A cloud client per appliance-cloud instance; default the VeSync-style client against the vendor's API. */
  cloudClient?: (() => ApplianceCloudClient) | undefined;
}

export function builtinPlugins(deps: BuiltinDeps): BuiltinPluginDefinition[] {
  return [
    {
      name: CAMERA_PLUGIN,
      version: "1.0.0",
      description: "Home Assistant cameras as Matter cameras: live view through HA's WebRTC, snapshots",
      experimental: true,
      create: (services) => new CameraPlugin(services, deps.openCameraHa),
    },
    {
      name: SECURITY_PLUGIN,
      version: "1.0.0",
      description: "Local alarm: Home, Away, Night and Vacation switches and an Alarm contact sensor",
      experimental: true,
      create: (services) => new SecurityPlugin(services, deps.openHa),
    },
    {
      name: APPLIANCE_PLUGIN,
      version: "1.0.0",
      description: "Cloud appliances (air fryers, purifiers, fans, humidifiers, plugs) through a VeSync-style account",
      experimental: true,
      create: (services) => new ApplianceCloudPlugin(services, deps.cloudClient?.() ?? new VeSyncClient()),
    },
  ];
}

/** The built-ins as hub.ts gets them: the camera and security plugins share the hub's Home Assistant connection. */
export function defaultBuiltinPlugins(options: {
  homeAssistant: HomeAssistantService;
  log: Logger;
  cloudClient?: (() => ApplianceCloudClient) | undefined;
}): BuiltinPluginDefinition[] {
  return builtinPlugins({
    openHa: haAccessFactory(options.homeAssistant, options.log),
    openCameraHa: cameraHaFactory(options.homeAssistant, options.log),
    cloudClient: options.cloudClient,
  });
}
