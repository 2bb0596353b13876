import { type ClusterId, EndpointNumber, FabricId, type NodeId, VendorId } from "@matter/main";
import { Descriptor, GeneralCommissioning } from "@matter/main/clusters";
import { ManualPairingCodeCodec } from "@matter/main/types";
import { CommissioningController } from "@project-chip/matter.js";
import type { PairedNode } from "@project-chip/matter.js/device";
import type { Logger } from "../../../lib/logger.ts";
import { assertNetworkIsolated } from "../../../lib/testing/isolation.ts";
import { createMatterEnvironment, type MatterEnvironment } from "../../src/matter/matter-environment.ts";
import { type ClusterRef, resolveAttribute, resolveCluster, resolveCommand } from "./matter-clusters.ts";
import { silentLogger } from "./matter-fixtures.ts";

export type { ClusterRef } from "./matter-clusters.ts";

export interface TestControllerOptions {
  /** Own storage folder: two controllers must never share one. */
  storagePath: string;
  /** Own UDP port: matter.js defaults to 5540 like the bridges. */
  localPort: number;
  /** The fabric label the bridge shows for this controller. */
  fabricLabel: string;
  /** A second controller needs its own fabric id (default 1). */
  adminFabricId?: number;
  /** Receives matter.js logs (all of the process's: matter.js logging is global); silent by default. */
  log?: Logger;
  /** The interface for mDNS (default `lo`; the interop run's test link is `veth-hub`). */
  mdnsInterface?: string;
}

/** One attribute report seen by the controller's subscription. */
export interface AttributeReport {
  endpoint: number;
  clusterId: number;
  attribute: string;
  value: unknown;
}

/**
 * A matter.js controller (`CommissioningController`) for integration tests, in its own Environment. It commissions
 * by manual code at a known address (no mDNS lookup needed for the first contact) and keeps a wildcard
 * subscription, with a 10 s max-interval ceiling so that tests do not wait a minute for liveness checks.
 */
export class TestController {
  readonly #matter: MatterEnvironment;
  readonly #controller: CommissioningController;

  private constructor(matter: MatterEnvironment, controller: CommissioningController) {
    this.#matter = matter;
    this.#controller = controller;
  }

  /** Starts a controller; refuses to run outside the private network namespace. */
  static async start(options: TestControllerOptions): Promise<TestController> {
    assertNetworkIsolated();
    const log = options.log ?? silentLogger();
    const matter = createMatterEnvironment({
      storagePath: options.storagePath,
      log,
      mdnsInterface: options.mdnsInterface ?? "lo",
    });
    const controller = new CommissioningController({
      environment: { environment: matter.environment, id: "controller" },
      autoConnect: false,
      adminFabricLabel: options.fabricLabel,
      localPort: options.localPort,
      adminVendorId: VendorId(0xfff1),
      // Its own root node would otherwise warn about matter.js development defaults.
      basicInformation: {
        vendorName: "Matter Hub tests",
        productId: 0x8001,
        productName: "Test controller",
        hardwareVersion: 1,
        softwareVersion: 1,
      },
      ...(options.adminFabricId !== undefined && { adminFabricId: FabricId(options.adminFabricId) }),
    });
    try {
      await controller.start();
    } catch (error) {
      await controller.close().catch(() => undefined);
      await matter.close();
      throw error;
    }
    return new TestController(matter, controller);
  }

  /** Commissions the node behind `manualCode` at a known address; resolves once its subscription is primed. */
  async commission(manualCode: string, address: { ip: string; port: number }): Promise<NodeId> {
    return commissionAt(this.#controller, manualCode, address, {
      subscribeMinIntervalFloorSeconds: 0,
      subscribeMaxIntervalCeilingSeconds: 10,
    });
  }

  /** The paired node, initialised (from the subscription or, after a controller restart, from its cache). */
  async node(nodeId: NodeId): Promise<PairedNode> {
    const node = await this.#controller.getNode(nodeId);
    // Awaiting `initialized` on a node that already is initialised never resolves.
    if (!node.initialized) {
      node.connect();
      await node.events.initialized;
    }
    return node;
  }

  /** Remote read of an endpoint's Descriptor PartsList (endpoint 0 lists every endpoint of the node). */
  async partsList(nodeId: NodeId, endpoint = 0): Promise<number[]> {
    return (await this.read(nodeId, endpoint, Descriptor, "partsList")) as number[];
  }

  /** Remote read of an endpoint's device type ids. */
  async deviceTypes(nodeId: NodeId, endpoint: number): Promise<number[]> {
    const list = (await this.read(nodeId, endpoint, Descriptor, "deviceTypeList")) as { deviceType: number }[];
    return list.map((entry) => entry.deviceType);
  }

  /**
   * Remote read of one attribute (never answered from the subscription cache). The controller's own copy of the
   * node's structure can trip over itself when a read's result and a subscription report both add an endpoint the
   * bridge just added ("… is already defined; endpoint IDs must be unique within parent", matter.js
   * ClientStructure): that is the test controller's bookkeeping, not the bridge's answer, so the read is made once
   * more.
   */
  async read(nodeId: NodeId, endpoint: number, cluster: ClusterRef, attribute: string): Promise<unknown> {
    const type = resolveCluster(cluster);
    const readOnce = async () => {
      const client = (await this.node(nodeId)).getInteractionClient();
      return client.getAttribute({
        endpointId: EndpointNumber(endpoint),
        clusterId: type.id,
        attribute: resolveAttribute(type, attribute),
        requestFromRemote: true,
      });
    };
    try {
      return await readOnce();
    } catch (error) {
      if (!/endpoint IDs must be unique within parent/.test(String(error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
      return readOnce();
    }
  }

  /** Invokes a command (`args` only for commands with fields); resolves with its response, if any. */
  async invoke(nodeId: NodeId, endpoint: number, cluster: ClusterRef, command: string, args?: object): Promise<unknown> {
    const type = resolveCluster(cluster);
    const client = (await this.node(nodeId)).getInteractionClient();
    return client.invoke({
      endpointId: EndpointNumber(endpoint),
      clusterId: type.id,
      command: resolveCommand(type, command),
      request: args as never,
      // Commands such as DoorLock's lock/unlock must arrive in a timed interaction (Matter Core §8.7).
      asTimedRequest: resolveCommand(type, command).schema.effectiveAccess.timed === true,
    });
  }

  /** Writes one attribute (remote write; `timed` for attributes the spec requires a timed interaction for). */
  async write(
    nodeId: NodeId,
    endpoint: number,
    cluster: ClusterRef,
    attribute: string,
    value: unknown,
    timed = false,
  ): Promise<void> {
    const type = resolveCluster(cluster);
    const client = (await this.node(nodeId)).getInteractionClient();
    await client.setAttribute({
      attributeData: {
        endpointId: EndpointNumber(endpoint),
        clusterId: type.id,
        attribute: resolveAttribute(type, attribute),
        value,
      },
      asTimedRequest: timed,
    });
  }

  /** Calls `listener` for every attribute report of the node's subscription until the returned function runs. */
  async onAttribute(nodeId: NodeId, listener: (report: AttributeReport) => void): Promise<() => void> {
    return observeReports(await this.node(nodeId), listener);
  }

  /**
   * Resolves with the value of the first report (arriving after this call) of the attribute that satisfies
   * `predicate`; rejects after `timeoutMs`.
   */
  async waitForAttribute(
    nodeId: NodeId,
    endpoint: number,
    cluster: ClusterRef,
    attribute: string,
    predicate: (value: unknown) => boolean = () => true,
    timeoutMs = 10_000,
  ): Promise<unknown> {
    const clusterId = resolveCluster(cluster).id;
    const node = await this.node(nodeId);
    let stop: (() => void) | undefined;
    let timer: NodeJS.Timeout | undefined;
    try {
      return await new Promise<unknown>((resolve, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no ${attribute} report from endpoint ${endpoint} in ${timeoutMs} ms`)),
          timeoutMs,
        );
        stop = observeReports(node, (report) => {
          const matches = report.endpoint === endpoint && report.clusterId === clusterId && report.attribute === attribute;
          if (matches && predicate(report.value)) resolve(report.value);
        });
      });
    } finally {
      clearTimeout(timer);
      stop?.();
    }
  }

  /** Tears down and re-creates the subscription at once (instead of waiting for its liveness timeout). */
  async reconnect(nodeId: NodeId): Promise<void> {
    await (await this.node(nodeId)).reconnect();
  }

  /** Opens an enhanced commissioning window on the node (as this controller's admin) and returns the codes. */
  async openCommissioningWindow(nodeId: NodeId): Promise<{ manualPairingCode: string; qrPairingCode: string }> {
    return (await this.node(nodeId)).openEnhancedCommissioningWindow(180);
  }

  /** Leaves the node's fabric (RemoveFabric) and forgets the node. */
  async decommission(nodeId: NodeId): Promise<void> {
    await this.#controller.removeNode(nodeId, true);
  }

  /** Node ids this controller has commissioned. */
  nodeIds(): NodeId[] {
    return this.#controller.getCommissionedNodes();
  }

  async close(): Promise<void> {
    try {
      await this.#controller.close();
    } finally {
      await this.#matter.close();
    }
  }
}

type ReportEvent = { path: { endpointId: number; clusterId: ClusterId; attributeName: string }; value: unknown };

function observeReports(node: PairedNode, listener: (report: AttributeReport) => void): () => void {
  const observer = ({ path, value }: ReportEvent) =>
    listener({ endpoint: path.endpointId, clusterId: path.clusterId, attribute: path.attributeName, value });
  node.events.attributeChanged.on(observer);
  return () => node.events.attributeChanged.off(observer);
}

/**
 * Commissions the node behind `manualCode` at a known loopback address (no discovery over mDNS), with a test
 * regulatory configuration; `extra` adds commissioning options such as subscription intervals.
 */
export function commissionAt(
  controller: CommissioningController,
  manualCode: string,
  address: { ip: string; port: number },
  extra: { subscribeMinIntervalFloorSeconds?: number; subscribeMaxIntervalCeilingSeconds?: number } = {},
): Promise<NodeId> {
  const { passcode, shortDiscriminator } = ManualPairingCodeCodec.decode(manualCode);
  return controller.commissionNode({
    commissioning: {
      regulatoryLocation: GeneralCommissioning.RegulatoryLocationType.IndoorOutdoor,
      regulatoryCountryCode: "XX",
    },
    discovery: {
      knownAddress: { ip: address.ip, port: address.port, type: "udp" },
      identifierData: shortDiscriminator === undefined ? {} : { shortDiscriminator },
    },
    passcode,
    ...extra,
  });
}
