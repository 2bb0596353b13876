/**
 * Reads one endpoint of a running node as a controller sees it (the device inspector, docs/inspector.md): its
 * device types, the clusters the node serves on it (the same set and attributes the interaction server answers
 * for), the client clusters it names, and every readable attribute's current value from the node's state. Nothing
 * is recomputed from Home Assistant: what the node would answer a Read is what is shown.
 */
import { ClusterBehavior, type Endpoint, ProtocolService } from "@matter/main";
import { Access, type AttributeModel, type ClusterModel, ElementTag, Matter, Metatype } from "@matter/main/model";
import type {
  AttributePath,
  EndpointInspection,
  InspectedAttribute,
  InspectedChange,
  InspectedCluster,
} from "../../bridges/endpoint-inspection.ts";
import { featureMapOf, showValue } from "./attribute-values.ts";

/**
 * Byte strings whose name says they hold a key or a code. No such attribute is readable with View privilege in
 * today's model (the Aliro keys of DoorLock need Administer and are hidden by that rule); this catches a custom
 * cluster or a later model that adds one.
 */
const SECRET_NAME = /key|credential|pin|passcode|password|secret/i;

/** Why an attribute's value is left out, or null when it is shown (docs/inspector.md, "Secrets"). */
export function hiddenReason(model: AttributeModel | undefined): string | null {
  if (!model) return null;
  const privilege = model.effectiveAccess.readPriv ?? Access.Privilege.View;
  if (privilege !== Access.Privilege.View) {
    return `Controllers need ${Access.PrivilegeName[privilege]} privilege to read this; the inspector does not show it`;
  }
  if (model.effectiveMetatype === Metatype.bytes && SECRET_NAME.test(model.name)) {
    return "It could carry a key or a credential; the inspector does not show it";
  }
  return null;
}

/** A server cluster of the endpoint: its protocol entry (what controllers read) and its behaviour (state, model). */
interface ServedCluster {
  id: number;
  name: string;
  attributes: { id: number; name: string }[];
  behavior: ClusterBehavior.Type;
}

function servedClusters(endpoint: Endpoint): ServedCluster[] {
  const protocol = endpoint.endpointProtocol;
  if (!protocol) return [];
  const behaviors = new Map<number, ClusterBehavior.Type>();
  for (const type of Object.values(endpoint.behaviors.supported)) {
    if (ClusterBehavior.isType(type) && type.schema?.id !== undefined) behaviors.set(type.schema.id, type);
  }
  const served: ServedCluster[] = [];
  for (const cluster of protocol) {
    const behavior = behaviors.get(cluster.type.id);
    if (!behavior) continue;
    const attributes = [...cluster.type.attributes].filter((a) => a.limits.readable).map((a) => ({ id: a.id, name: a.name }));
    served.push({ id: cluster.type.id, name: cluster.type.name, attributes, behavior });
  }
  return served.sort((a, b) => a.id - b.id);
}

function attributeModels(behavior: ClusterBehavior.Type): Map<number, AttributeModel> {
  const models = new Map<number, AttributeModel>();
  for (const member of behavior.supervisor.membersOf(behavior.schema, { tags: [ElementTag.Attribute] })) {
    if (member.id !== undefined && !models.has(member.id)) models.set(member.id, member as AttributeModel);
  }
  return models;
}

/**
 * The type as the specification names it: the named type (`StartUpOnOffEnum`) or the primitive one (`uint8`); for
 * an attribute that only renames a global or a base cluster's (`ClusterRevision`, BridgedDeviceBasicInformation's
 * from BasicInformation), the type that one has.
 */
function typeName(model: AttributeModel | undefined): string {
  if (!model) return "unknown";
  if (model.type && model.type !== model.name) return model.type;
  return model.base?.type ?? model.effectiveType ?? model.type ?? "unknown";
}

function inspectAttribute(
  endpoint: Endpoint,
  cluster: ServedCluster,
  attribute: { id: number; name: string },
  models: Map<number, AttributeModel>,
): InspectedAttribute {
  const model = models.get(attribute.id);
  const base = { id: attribute.id, name: model?.name ?? attribute.name, type: typeName(model) };
  const hidden = hiddenReason(model);
  if (hidden) return { ...base, value: null, text: "", truncated: false, hidden };
  // Only attributes of the cluster model are read, never a behaviour's own state fields: matter.js's DoorLockServer
  // keeps users and credentials there, and the hub's behaviours keep their bindings to Home Assistant.
  const raw = (endpoint.stateOf(cluster.behavior.id) as Record<string, unknown>)[attribute.name];
  const shown = showValue(model, raw, { cluster: cluster.behavior.schema as ClusterModel });
  return { ...base, ...shown, hidden: null };
}

function inspectCluster(endpoint: Endpoint, cluster: ServedCluster): InspectedCluster {
  const state = endpoint.stateOf(cluster.behavior.id) as { clusterRevision?: number; featureMap?: unknown };
  const models = attributeModels(cluster.behavior);
  return {
    id: cluster.id,
    name: cluster.name,
    side: "server",
    revision: state.clusterRevision ?? null,
    ...featureMapOf(cluster.behavior.schema as ClusterModel, state.featureMap),
    attributes: cluster.attributes.map((a) => inspectAttribute(endpoint, cluster, a, models)).sort((a, b) => a.id - b.id),
  };
}

interface DescriptorState {
  deviceTypeList?: readonly { deviceType: number; revision: number }[];
  clientList?: readonly number[];
  partsList?: readonly number[];
}

/** The endpoint's inspection; `entityId` names the Home Assistant entity behind it, if any. */
export function inspectEndpoint(endpoint: Endpoint, bridgeId: string, entityId: string | null): EndpointInspection {
  const descriptor = (endpoint.maybeStateOf("descriptor") ?? {}) as DescriptorState;
  const clients: InspectedCluster[] = (descriptor.clientList ?? []).map((id) => ({
    id,
    name: Matter.clusters(id)?.name ?? `Unknown cluster 0x${id.toString(16)}`,
    side: "client",
    revision: null,
    featureMap: null,
    features: [],
    attributes: [],
  }));
  return {
    bridgeId,
    endpointNumber: endpoint.number,
    endpointId: endpoint.id,
    entityId,
    readAt: new Date().toISOString(),
    deviceTypes: (descriptor.deviceTypeList ?? []).map(({ deviceType, revision }) => ({
      id: deviceType,
      name: Matter.deviceTypes.find((t) => t.id === deviceType)?.name ?? `Unknown device type 0x${deviceType.toString(16)}`,
      revision,
    })),
    parts: [...(descriptor.partsList ?? [])],
    clusters: [...servedClusters(endpoint).map((c) => inspectCluster(endpoint, c)), ...clients],
  };
}

/** The current values of some attributes of the endpoint (those a live watch reported changed). */
export function readAttributes(endpoint: Endpoint, paths: readonly AttributePath[]): InspectedChange[] {
  const clusters = new Map(servedClusters(endpoint).map((c) => [c.id, c]));
  const changes: InspectedChange[] = [];
  const models = new Map<number, Map<number, AttributeModel>>();
  for (const { clusterId, attributeId } of paths) {
    const cluster = clusters.get(clusterId);
    const attribute = cluster?.attributes.find((a) => a.id === attributeId);
    if (!cluster || !attribute) continue;
    let clusterModels = models.get(clusterId);
    if (!clusterModels) {
      clusterModels = attributeModels(cluster.behavior);
      models.set(clusterId, clusterModels);
    }
    changes.push({ clusterId, ...inspectAttribute(endpoint, cluster, attribute, clusterModels) });
  }
  return changes;
}

/**
 * Calls `changed` with the attributes of this endpoint that the node reports changed (the same notifications its
 * subscriptions to controllers are fed from), until the returned function is called. One observer on the node; other
 * endpoints' changes cost a number comparison while it is attached and nothing once it is detached.
 */
export function watchEndpoint(endpoint: Endpoint, changed: (paths: AttributePath[]) => void): () => void {
  const number = endpoint.number;
  const { attrsChanged } = endpoint.env.get(ProtocolService).protocol;
  const observer = (endpointNumber: number, clusterId: number, attributeIds: readonly number[]) => {
    if (endpointNumber !== number || attributeIds.length === 0) return;
    changed(attributeIds.map((attributeId) => ({ clusterId, attributeId })));
  };
  attrsChanged.on(observer);
  return () => attrsChanged.off(observer);
}
