import { badRequest, notFound } from "../../../lib/http-error.ts";
import type { BridgeService } from "./bridge-service.ts";
import type { EndpointInspection } from "./endpoint-inspection.ts";

/** Endpoint numbers are 16-bit; 0xFFFF is the wildcard and never an endpoint. */
export const MAX_ENDPOINT_NUMBER = 0xfffe;

/**
 * `GET .../endpoints/:endpointNumber`: one endpoint of a running bridge (root 0, the aggregator, a device). 404 for
 * an unknown bridge or endpoint, 400 for a number that cannot be an endpoint or a bridge that is not running (its
 * node, and so what a controller would read, exists only while it runs).
 */
export function inspectEndpoint(bridges: BridgeService, bridgeId: string, endpointParam: string): EndpointInspection {
  const endpointNumber = /^\d{1,5}$/.test(endpointParam) ? Number(endpointParam) : Number.NaN;
  if (!(endpointNumber <= MAX_ENDPOINT_NUMBER)) {
    // Checked after the bridge: an unknown bridge is 404 whatever the number.
    bridges.config(bridgeId);
    throw badRequest(`Not an endpoint number: "${endpointParam.slice(0, 16)}" (expected 0 to ${MAX_ENDPOINT_NUMBER})`);
  }
  const inspection = bridges.inspect(bridgeId, endpointNumber);
  if (inspection) return inspection;
  refuseWhenNotRunning(bridges, bridgeId);
  throw notFound(`Bridge ${bridgeId} has no endpoint ${endpointNumber}`);
}

/**
 * `GET .../devices/:entityId/inspect`: the endpoint of an entity's device. 404 (saying why) when the bridge does not
 * put the entity on an endpoint of its own: unknown to the bridge, skipped, failed, or part of another endpoint.
 */
export function inspectEntity(bridges: BridgeService, bridgeId: string, entityId: string): EndpointInspection {
  refuseWhenNotRunning(bridges, bridgeId);
  const row = bridges.device(bridgeId, entityId);
  const name = entityId.slice(0, 255);
  if (!row) throw notFound(`Entity not found on this bridge: ${name}`);
  if (row.composedInto) throw notFound(`${name} has no endpoint of its own: it is part of ${row.composedInto}'s endpoint`);
  if (row.endpointNumber === null) {
    throw notFound(`${name} is not exposed by this bridge: ${row.skipped ?? row.failed ?? "it has no endpoint yet"}`);
  }
  const inspection = bridges.inspect(bridgeId, row.endpointNumber);
  if (!inspection) throw notFound(`${name} has no endpoint on the running bridge`);
  return inspection;
}

function refuseWhenNotRunning(bridges: BridgeService, bridgeId: string): void {
  const { status } = bridges.record(bridgeId);
  if (status !== "running") throw badRequest(`The bridge is ${status}: its devices can be inspected while it runs`);
}
