import type { EndpointInspection, InspectedAttribute, InspectedChange } from "../api/types.ts";

/** Names one attribute of an endpoint across snapshots and live updates. */
export const attributeKey = (clusterId: number, attributeId: number) => `${clusterId}/${attributeId}`;

/**
 * Matter's global attributes (GeneratedCommandList 0xFFF8 to ClusterRevision 0xFFFD): the same on every cluster,
 * shown apart so that a cluster's own attributes come first.
 */
export const isGlobal = (attribute: InspectedAttribute) => attribute.id >= 0xfff8;

/** The inspection with the attributes a live update carries put in; the feature map and revision follow theirs. */
export function applyChanges(inspection: EndpointInspection, changes: InspectedChange[]): EndpointInspection {
  const byKey = new Map(changes.map((change) => [attributeKey(change.clusterId, change.id), change]));
  return {
    ...inspection,
    clusters: inspection.clusters.map((cluster) => {
      if (!changes.some((change) => change.clusterId === cluster.id) || cluster.side !== "server") return cluster;
      const attributes = cluster.attributes.map((attribute) => {
        const change = byKey.get(attributeKey(cluster.id, attribute.id));
        if (!change) return attribute;
        const { clusterId: _, ...changed } = change;
        return changed;
      });
      const revision = attributes.find((a) => a.id === 0xfffd)?.value;
      return { ...cluster, attributes, revision: typeof revision === "number" ? revision : cluster.revision };
    }),
  };
}

/** The attributes whose value reads differently in `after` than in `before` (same endpoint; none without `before`). */
export function changedKeys(before: EndpointInspection | undefined, after: EndpointInspection): string[] {
  if (!before || before.bridgeId !== after.bridgeId || before.endpointNumber !== after.endpointNumber) return [];
  const old = new Map<string, string>();
  for (const cluster of before.clusters)
    for (const attribute of cluster.attributes) old.set(attributeKey(cluster.id, attribute.id), attribute.text);
  const changed: string[] = [];
  for (const cluster of after.clusters)
    for (const attribute of cluster.attributes) {
      const key = attributeKey(cluster.id, attribute.id);
      const previous = old.get(key);
      if (previous !== undefined && previous !== attribute.text) changed.push(key);
    }
  return changed;
}

/** What controllers call the device: the node label of its (bridged) basic information, if it has one. */
export function labelOf(inspection: EndpointInspection): string | null {
  for (const clusterId of [0x39, 0x28]) {
    const label = inspection.clusters.find((c) => c.id === clusterId)?.attributes.find((a) => a.name === "NodeLabel");
    if (typeof label?.value === "string" && label.value) return label.value;
  }
  return null;
}
