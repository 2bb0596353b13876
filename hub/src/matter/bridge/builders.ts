/**
 * How a bridge's Matter node and its entity endpoints are built from the bridge's configuration and an HA entity;
 * the identities controllers remember (unique ids, serials, vendor and product) come from identity.ts.
 */
import type { Endpoint } from "@matter/main";
import type { BridgeConfig } from "../../bridges/bridge-config.ts";
import type { EntityView } from "../../home-assistant/entity-view.ts";
import type { HomeAssistantService } from "../../home-assistant/home-assistant-service.ts";
import { createDeviceEndpoint } from "../devices/endpoint-types.ts";
import type { MatterEnvironment } from "../matter-environment.ts";
import { cutUtf8 } from "../matter-strings.ts";
import { type Companions, type DeviceTypeKey, type EntitySnapshot, NO_PIN_REQUIRED, type PinCheck } from "../model/contract.ts";
import { bridgeSerialNumber, bridgeUniqueId, entityUniqueId, PRODUCT_ID, VENDOR_ID, VENDOR_NAME } from "./identity.ts";
import { BridgeNode } from "./node.ts";

export function createBridgeNode(config: BridgeConfig, deps: { environment: MatterEnvironment; version: string }): BridgeNode {
  return new BridgeNode({
    id: config.id,
    name: config.name,
    port: config.port,
    passcode: config.passcode,
    discriminator: config.discriminator,
    vendorId: VENDOR_ID,
    productId: PRODUCT_ID,
    vendorName: VENDOR_NAME,
    productName: config.serverMode ? "Matter Hub Device" : "Matter Hub Bridge",
    serialNumber: bridgeSerialNumber(config.id),
    uniqueId: bridgeUniqueId(config.id),
    softwareVersion: deps.version,
    serverMode: config.serverMode,
    environment: deps.environment,
  });
}

/** The endpoint of one HA entity on a bridge, with the entity's device as its bridged basic information. */
export function createEntityEndpoint(options: {
  bridge: BridgeConfig;
  view: EntityView;
  endpointId: string;
  key: DeviceTypeKey;
  snapshot: EntitySnapshot;
  companions: Companions;
  ha: HomeAssistantService;
  pinCheck: PinCheck | undefined;
}): Promise<Endpoint> {
  const { bridge, view, endpointId, ha } = options;
  const device = view.device;
  return createDeviceEndpoint({
    id: endpointId,
    snapshot: options.snapshot,
    key: options.key,
    companions: options.companions,
    serverMode: bridge.serverMode,
    actions: ha.actions,
    pinCheck: options.pinCheck ?? NO_PIN_REQUIRED,
    unitSystem: { temperature: ha.model.config?.unit_system?.temperature ?? "°C" },
    basicInformation: {
      uniqueId: entityUniqueId(endpointId, bridge.id),
      ...(device?.manufacturer ? { vendorName: cutUtf8(device.manufacturer) } : {}),
      ...(device?.model ? { productName: cutUtf8(device.model) } : {}),
      ...(device?.serial_number ? { serialNumber: cutUtf8(device.serial_number) } : {}),
    },
  });
}
