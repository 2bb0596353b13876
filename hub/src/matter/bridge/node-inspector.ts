import type { AttributePath, EndpointInspection, InspectedChange } from "../../bridges/endpoint-inspection.ts";
import { inspectEndpoint, readAttributes, watchEndpoint } from "../inspect/endpoint-inspector.ts";
import type { BridgeNode } from "./node.ts";

/**
 * The device inspector's side of one bridge runtime: finds the endpoint by number on the running node and reads or
 * watches it. `entityAt` names the Home Assistant entity behind an endpoint number (null for the root, the
 * aggregator and plugin devices).
 */
export class NodeInspector {
  constructor(
    private readonly bridgeId: string,
    private readonly runningNode: () => BridgeNode | undefined,
    private readonly entityAt: (endpointNumber: number) => string | null,
  ) {}

  inspect(endpointNumber: number): EndpointInspection | undefined {
    const endpoint = this.runningNode()?.endpointByNumber(endpointNumber);
    return endpoint && inspectEndpoint(endpoint, this.bridgeId, this.entityAt(endpointNumber));
  }

  readAttributes(endpointNumber: number, paths: readonly AttributePath[]): InspectedChange[] | undefined {
    const endpoint = this.runningNode()?.endpointByNumber(endpointNumber);
    return endpoint && readAttributes(endpoint, paths);
  }

  watchEndpoint(endpointNumber: number, changed: (paths: AttributePath[]) => void): (() => void) | undefined {
    const endpoint = this.runningNode()?.endpointByNumber(endpointNumber);
    return endpoint && watchEndpoint(endpoint, changed);
  }
}
