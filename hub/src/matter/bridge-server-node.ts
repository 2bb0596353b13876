import { ServerNode, ServerNodeStore, VendorId } from "@matter/main";
import { AggregatorEndpoint } from "@matter/main/endpoints/aggregator";
import { basicInformationFor } from "./bridge-identity.ts";
import type { BridgeNodeOptions } from "./bridge-node.ts";

/**
 * matter.js's ServerNode with one fix: a factory reset (`erase()`, which matter.js also runs by itself when the
 * last fabric is removed) re-initialises the node and opens a new ServerNodeStore without closing the old one. The
 * storage driver is reference-counted, so the node's storage then never closes again: `close()` leaves its lock
 * behind and the process ends with "Storage ... was not closed before process exit". Closing the replaced store
 * here releases exactly the reference that leaked (measured with matter.js 0.17.9).
 */
export class HubServerNode extends ServerNode {
  protected override async eraseWithMutex(): Promise<void> {
    const previous = this.env.maybeGet(ServerNodeStore);
    await super.eraseWithMutex();
    const current = this.env.maybeGet(ServerNodeStore);
    if (previous && current !== previous) await previous.close();
  }
}

/**
 * Creates (not starts) the bridge's ServerNode from its storage: identity within Matter's limits, the port on all
 * IPv4 and IPv6 interfaces, the optional fixed passcode/discriminator.
 */
export function createBridgeServerNode(options: BridgeNodeOptions): Promise<ServerNode> {
  const basicInformation = basicInformationFor({ ...options, softwareVersion: options.softwareVersion ?? "1.0.0" });
  return HubServerNode.create({
    id: options.id,
    environment: options.environment.environment,
    network: { port: options.port },
    commissioning: {
      ...(options.passcode !== undefined && { passcode: options.passcode }),
      ...(options.discriminator !== undefined && { discriminator: options.discriminator }),
    },
    productDescription: {
      name: basicInformation.nodeLabel,
      // An aggregator advertises as such; in server mode matter.js infers the type from the (first) device.
      ...(!options.serverMode && { deviceType: AggregatorEndpoint.deviceType }),
    },
    basicInformation: { ...basicInformation, vendorId: VendorId(options.vendorId) },
  });
}
