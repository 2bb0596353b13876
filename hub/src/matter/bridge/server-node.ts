import { CommissioningServer, Logger, ServerNode, ServerNodeStore, VendorId } from "@matter/main";
import { AggregatorEndpoint } from "@matter/main/endpoints/aggregator";
import type { MatterEnvironment } from "../matter-environment.ts";
import { basicInformationFor } from "./identity.ts";

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

/** What a bridge's node is built from (node.ts); the node's identity fields go through identity.ts's limits here. */
export interface BridgeNodeOptions {
  /** Storage namespace of the node (a folder under the environment's storage path); stable for the bridge's life. */
  id: string;
  /** Shown to users as the node label (cut to 32 bytes). */
  name: string;
  /** UDP port, bound on all IPv4 and IPv6 interfaces. */
  port: number;
  /** Fixed setup passcode; by default matter.js generates one once and keeps it in storage. */
  passcode?: number | undefined;
  /** Fixed 12-bit discriminator; generated and stored like the passcode by default. */
  discriminator?: number | undefined;
  /** 0xFFF1 (test vendor) until the hub has a real vendor id. */
  vendorId: number;
  productId: number;
  vendorName: string;
  productName: string;
  serialNumber: string;
  uniqueId: string;
  /** Shown as softwareVersionString, e.g. the add-on version; default "1.0.0". */
  softwareVersion?: string | undefined;
  /** Devices directly under the root node instead of under an Aggregator ("aggregator" endpoint). */
  serverMode?: boolean | undefined;
  environment: MatterEnvironment;
}

const commissioningLog = Logger.get("Commissioning");

/**
 * matter.js's CommissioningServer announces an uncommissioned node by logging its setup passcode, manual pairing
 * code and QR code (as text art and as a URL) at NOTICE, which the hub forwards at info to the add-on log and
 * `/api/logs`: whoever reads a log someone shared could pair the bridge. The codes are shown where the user asks
 * for them (the bridge's page and record, docs/decisions.md "Bridges"); this line says only where to find them.
 */
export class HubCommissioningServer extends CommissioningServer {
  override initiateCommissioning(): void {
    commissioningLog.notice(`${this.endpoint} is uncommissioned; its pairing codes are on the bridge's page in the hub`);
  }
}

const HubRootEndpoint = ServerNode.RootEndpoint.with(HubCommissioningServer);

/**
 * Creates (not starts) the bridge's ServerNode from its storage: identity within Matter's limits, the port on all
 * IPv4 and IPv6 interfaces, the optional fixed passcode/discriminator.
 */
export function createBridgeServerNode(options: BridgeNodeOptions): Promise<ServerNode> {
  const basicInformation = basicInformationFor({ ...options, softwareVersion: options.softwareVersion ?? "1.0.0" });
  return HubServerNode.create(HubRootEndpoint, {
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
