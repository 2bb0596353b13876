/**
 * The built-in plugins (hub-plugins.md "Built-in plugins"): no installation, listed on every standard bridge,
 * enabled by default, and no devices until configured. The camera plugin has its own issue and is not here yet.
 */
import type { Logger } from "../../../../lib/logger.ts";
import type { HomeAssistantService } from "../../home-assistant/home-assistant-service.ts";
import type { BuiltinPluginDefinition } from "../plugin-source.ts";
import { APPLIANCE_PLUGIN, ApplianceCloudPlugin } from "./appliance-cloud/appliance-plugin.ts";
import type { ApplianceCloudClient } from "./appliance-cloud/cloud-client.ts";
import { VeSyncClient } from "./appliance-cloud/vesync-client.ts";
import { type HaAccessFactory, haAccessFactory } from "./ha-access.ts";
import { SECURITY_PLUGIN, SecurityPlugin } from "./security/security-plugin.ts";

export interface BuiltinDeps {
  /** How the security plugin reaches Home Assistant. */
  openHa: HaAccessFactory;
  /** A cloud client per appliance-cloud instance; default the VeSync-style client against the vendor's API. */
  cloudClient?: (() => ApplianceCloudClient) | undefined;
}

export function builtinPlugins(deps: BuiltinDeps): BuiltinPluginDefinition[] {
  return [
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

/** The built-ins as hub.ts gets them: the security plugin shares the hub's Home Assistant connection. */
export function defaultBuiltinPlugins(options: {
  homeAssistant: HomeAssistantService;
  log: Logger;
  cloudClient?: (() => ApplianceCloudClient) | undefined;
}): BuiltinPluginDefinition[] {
  return builtinPlugins({ openHa: haAccessFactory(options.homeAssistant, options.log), cloudClient: options.cloudClient });
}
