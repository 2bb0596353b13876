/**
 * The device inspector's answer (docs/inspector.md): one endpoint of a running bridge as a controller reads it,
 * with names from matter.js's data model. Owned here, beside the runtime contract, so the routes, the live channel
 * and the web UI never load matter.js; `hub/src/matter/inspect/` fills it in.
 */

/** Plain JSON, as `value` carries it (bigints and byte strings as strings). */
export type InspectedValue = null | boolean | number | string | InspectedValue[] | { [key: string]: InspectedValue };

export interface InspectedAttribute {
  id: number;
  /** The data model's name, e.g. `OnOff`, `StartUpOnOff`, `FeatureMap`. */
  name: string;
  /** The data model's type, e.g. `bool`, `uint8`, `StartUpOnOffEnum`, `list`. */
  type: string;
  /** The value as the node serves it, as JSON; null when hidden (see `hidden`). */
  value: InspectedValue;
  /** One readable line: enum names, bitmap flags, `null`, quoted strings, named ids. Empty when hidden. */
  text: string;
  /** Lists, strings or byte strings longer than the inspector shows were cut. */
  truncated: boolean;
  /** Why the value is not shown (it needs more than View privilege to read, or would carry a secret); else null. */
  hidden: string | null;
}

export interface InspectedCluster {
  id: number;
  name: string;
  /** `server`: the endpoint hosts it (with attributes); `client`: it uses the cluster of other nodes (no attributes). */
  side: "server" | "client";
  /** ClusterRevision, FeatureMap and the titles of the features it sets; null for client clusters. */
  revision: number | null;
  featureMap: number | null;
  features: string[];
  attributes: InspectedAttribute[];
}

export interface EndpointInspection {
  bridgeId: string;
  endpointNumber: number;
  /** matter.js's id of the endpoint (stable per entity; `aggregator`, or the node's id for the root). */
  endpointId: string;
  /** The Home Assistant entity whose device this is; null for the root, the aggregator and plugin devices. */
  entityId: string | null;
  /** When the values were read (ISO 8601). */
  readAt: string;
  deviceTypes: { id: number; name: string; revision: number }[];
  /** Endpoint numbers below this one (Descriptor PartsList): the aggregator's devices, the root's whole tree. */
  parts: number[];
  clusters: InspectedCluster[];
}

/** Attributes that changed, as `endpoint_update` carries them (live channel). */
export interface InspectedChange extends InspectedAttribute {
  clusterId: number;
}

/** One attribute of an endpoint: which cluster, which attribute id. */
export interface AttributePath {
  clusterId: number;
  attributeId: number;
}
