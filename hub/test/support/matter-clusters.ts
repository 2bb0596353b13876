import { Matter } from "@matter/main";
import type { ClusterModel } from "@matter/main/model";
import { ClusterType } from "@matter/main/types";

/** A cluster given by name ("onOff", "OnOff", "temperatureMeasurement") or as a matter.js ClusterType (`OnOff`). */
export type ClusterRef = string | ClusterType.Concrete;

type AnyCluster = ClusterType.Concrete & {
  attributes: Record<string, ClusterType.Attribute | undefined>;
  commands: Record<string, ClusterType.Command | undefined>;
};

const byName = new Map<string, AnyCluster>();

/** The ClusterType for a name or the cluster itself; throws on an unknown name so a typo fails loudly. */
export function resolveCluster(cluster: ClusterRef): AnyCluster {
  if (typeof cluster !== "string") return cluster as AnyCluster;
  const key = cluster.toLowerCase();
  let found = byName.get(key);
  if (!found) {
    const model = Matter.clusters.find((candidate: ClusterModel) => candidate.name.toLowerCase() === key);
    if (!model) throw new Error(`unknown cluster "${cluster}"`);
    found = ClusterType(model) as AnyCluster;
    byName.set(key, found);
  }
  return found;
}

/** The attribute of `cluster` named `name` (camelCase, as matter.js names state properties). */
export function resolveAttribute(cluster: AnyCluster, name: string): ClusterType.Attribute {
  const attribute = cluster.attributes[name];
  if (!attribute) throw new Error(`cluster ${cluster.name} has no attribute "${name}"`);
  return attribute;
}

/** The command of `cluster` named `name` (camelCase). */
export function resolveCommand(cluster: AnyCluster, name: string): ClusterType.Command {
  const command = cluster.commands[name];
  if (!command) throw new Error(`cluster ${cluster.name} has no command "${name}"`);
  return command;
}
