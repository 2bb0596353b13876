/**
 * The hub's side of the built-in plugin boundary: the {@link HubBuiltinServices} one PluginService hands to every
 * built-in instance (the plugin slot adds bridge id, clock, log and status line). builtin-services.ts says what each
 * member is and why external plugins do not get it.
 */
import type { Logger } from "../../../../lib/logger.ts";
import type { HomeAssistantService } from "../../home-assistant/home-assistant-service.ts";
import type { HubBuiltinServices } from "../builtin-services.ts";
import { cameraHaFactory } from "./camera-ha.ts";
import { haAccessFactory } from "./ha-access.ts";

/** Without Home Assistant (tests that run built-ins without one) opening an access throws a readable reason. */
function noHomeAssistant(): never {
  throw new Error("this hub has no Home Assistant connection");
}

export function hubBuiltinServices(options: {
  homeAssistant?: HomeAssistantService | undefined;
  log: Logger;
}): HubBuiltinServices {
  const { homeAssistant, log } = options;
  return {
    openHa: homeAssistant ? haAccessFactory(homeAssistant, log) : noHomeAssistant,
    openCameraHa: homeAssistant ? cameraHaFactory(homeAssistant, log) : noHomeAssistant,
    cameraDevice: ({ id, name, backend }) => ({ id, name, endpointType: { kind: "camera", backend } }),
  };
}
