/**
 * What the Matter specification requires of a server cluster with a given FeatureMap, and of a device type, taken
 * from matter.js's model of the specification (the conformance column of every attribute, command and device type
 * requirement) instead of hand-written lists. The interop tests compare it with what the reference controller
 * reads from a bridged endpoint: missing mandatory elements, and elements the FeatureMap does not allow (a feature
 * map that lies), are both findings.
 *
 * Conformance that depends on more than features (other attributes, prose, revisions) evaluates to "conditional"
 * and is not checked; provisional and deprecated elements are allowed but never required.
 */
import { Matter } from "@matter/main";
import { type ClusterModel, Conformance } from "@matter/main/model";

/** The global attributes every cluster has (Matter Core §7.13): ClusterRevision … GeneratedCommandList. */
const GLOBAL_ATTRIBUTES = { featureMap: 0xfffc, attributeList: 0xfffb } as const;
const ACCEPTED_COMMAND_LIST = 0xfff9;
const GENERATED_COMMAND_LIST = 0xfff8;
/** Always mandatory, whatever the cluster model says (its own conformance of the first two is empty). */
const ALWAYS = [0xfffd, 0xfffc, 0xfffb, ACCEPTED_COMMAND_LIST, GENERATED_COMMAND_LIST];

/** One element of the model: id, name and whether the features make it mandatory or rule it out. */
interface Element {
  id: number;
  name: string;
  mandatory: boolean;
  /** The features exclude it (X, or a feature expression that is false); provisional/deprecated are not. */
  disallowed: boolean;
}

/** What the specification says about one cluster given the features a server announces. */
export interface ClusterRules {
  id: number;
  name: string;
  /** The revision matter.js models (the newest specification it knows). */
  revision: number;
  /** Names of the features set in the FeatureMap (e.g. `LT`, `LF`, `PA_LF`). */
  features: string[];
  /** FeatureMap bits with no feature in the model. */
  unknownFeatureBits: number[];
  attributes: Element[];
  /** Client-to-server commands. */
  commands: Element[];
}

/** Findings for one server cluster of one endpoint; all lists empty means it conforms. */
export interface ClusterFindings {
  missingAttributes: string[];
  disallowedAttributes: string[];
  missingCommands: string[];
  disallowedCommands: string[];
  unknownFeatureBits: number[];
}

function clusterModel(id: number): ClusterModel | undefined {
  return Matter.clusters.find((cluster: ClusterModel) => cluster.id === id);
}

function judge(conformance: Conformance, context: Conformance.FeatureContext): Pick<Element, "mandatory" | "disallowed"> {
  const applicability = conformance.applicabilityFor(context);
  const { type } = conformance.ast;
  const neverRequired = type === Conformance.Flag.Provisional || type === Conformance.Flag.Deprecated;
  return {
    mandatory: applicability === Conformance.Applicability.Mandatory,
    disallowed: applicability === Conformance.Applicability.None && !neverRequired,
  };
}

/** The rules for cluster `id` with `featureMap`; undefined for a cluster matter.js does not model. */
export function clusterRules(id: number, featureMap: number): ClusterRules | undefined {
  const model = clusterModel(id);
  if (!model) return undefined;
  const features: string[] = [];
  const known = new Set<number>();
  for (const feature of model.featureMap.children) {
    const bit = Number(feature.constraint.value);
    known.add(bit);
    if (featureMap & (1 << bit)) features.push(feature.name);
  }
  const unknownFeatureBits: number[] = [];
  for (let bit = 0; bit < 32; bit++) if (featureMap & (1 << bit) && !known.has(bit)) unknownFeatureBits.push(bit);
  const context: Conformance.FeatureContext = { definedFeatures: model.definedFeatures, supportedFeatures: new Set(features) };
  const attributes = [...model.attributes].map((attribute) => ({
    id: attribute.id,
    name: attribute.name,
    ...(ALWAYS.includes(attribute.id) ? { mandatory: true, disallowed: false } : judge(attribute.conformance, context)),
  }));
  const commands = [...model.commands]
    .filter((command) => command.isRequest)
    .map((command) => ({ id: command.id, name: command.name, ...judge(command.conformance, context) }));
  return { id, name: model.name, revision: model.revision, features, unknownFeatureBits, attributes, commands };
}

/**
 * Compares a server cluster as read (attribute id → value, ids as strings, globals included) with its rules: every
 * mandatory attribute in AttributeList, no disallowed one there, and the same for AcceptedCommandList.
 */
export function checkCluster(rules: ClusterRules, read: Record<string, unknown>): ClusterFindings {
  const attributeList = new Set((read[String(GLOBAL_ATTRIBUTES.attributeList)] as number[] | undefined) ?? []);
  const accepted = new Set((read[String(ACCEPTED_COMMAND_LIST)] as number[] | undefined) ?? []);
  const named = (elements: Element[]) => elements.map((element) => `${element.name} (0x${element.id.toString(16)})`);
  return {
    missingAttributes: named(rules.attributes.filter((a) => a.mandatory && !attributeList.has(a.id))),
    disallowedAttributes: named(rules.attributes.filter((a) => a.disallowed && attributeList.has(a.id))),
    missingCommands: named(rules.commands.filter((c) => c.mandatory && !accepted.has(c.id))),
    disallowedCommands: named(rules.commands.filter((c) => c.disallowed && accepted.has(c.id))),
    unknownFeatureBits: rules.unknownFeatureBits,
  };
}

/** The server clusters a device type requires unconditionally (Device Library "Cluster Requirements", M). */
export function mandatoryServerClusters(deviceTypeId: number): { id: number; name: string }[] {
  const model = Matter.deviceTypes.find((deviceType) => deviceType.id === deviceTypeId);
  if (!model) throw new Error(`matter.js has no device type 0x${deviceTypeId.toString(16)}`);
  const none: Conformance.FeatureContext = { definedFeatures: new Set(), supportedFeatures: new Set() };
  return model.requirements
    .filter((requirement) => requirement.element === "serverCluster")
    .filter((requirement) => requirement.conformance.applicabilityFor(none) === Conformance.Applicability.Mandatory)
    .map((requirement) => ({ id: requirement.id as number, name: requirement.name }));
}

/** One endpoint as the reference controller read it: raw (ids → TLV values, every attribute) and decoded by the SDK. */
export interface EndpointRead {
  raw: Record<string, Record<string, unknown>>;
  typed: Record<string, Record<string, unknown>>;
}

const DESCRIPTOR = 0x001d;
const BRIDGED_NODE = 0x0013;
const hex = (id: number) => `0x${id.toString(16).padStart(4, "0")}`;

/** Device types (with the Bridged Node), and the server clusters each requires, as the Descriptor lists them. */
export function descriptorFindings(read: EndpointRead, deviceType: number): string[] {
  const descriptor = read.raw[String(DESCRIPTOR)] ?? {};
  // DeviceTypeList entries are {0: deviceType, 1: revision} in raw TLV.
  const types = ((descriptor["0"] as Record<string, number>[] | undefined) ?? []).map((entry) => entry["0"] as number);
  const servers = new Set((descriptor["1"] as number[] | undefined) ?? []);
  const findings: string[] = [];
  for (const wanted of [deviceType, BRIDGED_NODE]) {
    if (!types.includes(wanted)) findings.push(`DeviceTypeList lacks ${hex(wanted)} (has ${types.map(hex).join(", ")})`);
  }
  for (const type of types) {
    for (const cluster of mandatoryServerClusters(type)) {
      if (!servers.has(cluster.id)) findings.push(`device type ${hex(type)} requires server cluster ${cluster.name}`);
    }
  }
  return findings;
}

/**
 * Per server cluster: mandatory attributes and commands for its FeatureMap present, nothing the FeatureMap rules
 * out, every listed attribute readable, and nothing the SDK could not decode.
 */
export function conformanceFindings(read: EndpointRead): string[] {
  const servers = (read.raw[String(DESCRIPTOR)]?.["1"] as number[] | undefined) ?? [];
  const findings: string[] = [];
  for (const id of servers) {
    const values = read.raw[String(id)];
    if (!values) {
      findings.push(`${hex(id)}: in ServerList but not readable`);
      continue;
    }
    const rules = clusterRules(id, (values[String(GLOBAL_ATTRIBUTES.featureMap)] as number | undefined) ?? 0);
    if (!rules) {
      findings.push(`${hex(id)}: not in matter.js's model of the specification`);
      continue;
    }
    const found = checkCluster(rules, values);
    const where = `${rules.name} [${rules.features.join(",")}]`;
    for (const name of found.missingAttributes) findings.push(`${where}: mandatory attribute ${name} missing`);
    for (const name of found.disallowedAttributes) findings.push(`${where}: attribute ${name} not allowed by the FeatureMap`);
    for (const name of found.missingCommands) findings.push(`${where}: mandatory command ${name} not accepted`);
    for (const name of found.disallowedCommands) findings.push(`${where}: command ${name} not allowed by the FeatureMap`);
    for (const bit of found.unknownFeatureBits) findings.push(`${where}: FeatureMap bit ${bit} is no feature`);
    const listed = (values[String(GLOBAL_ATTRIBUTES.attributeList)] as number[] | undefined) ?? [];
    for (const attribute of listed) {
      const value = values[String(attribute)];
      if (value === undefined) findings.push(`${where}: attribute ${hex(attribute)} listed but not reported`);
      else if (typeof value === "object" && value !== null && "status" in value)
        findings.push(`${where}: attribute ${hex(attribute)} listed but read fails (${String(value.status)})`);
    }
  }
  for (const [cluster, attributes] of Object.entries(read.typed)) {
    for (const [name, value] of Object.entries(attributes)) {
      if (typeof value === "object" && value !== null && "decodeError" in value)
        findings.push(`${cluster}.${name}: the SDK cannot decode it (${String(value.decodeError)})`);
    }
  }
  return findings;
}

/**
 * Clusters whose commands are matter.js's own and touch no HA entity: Identify, Groups and Scenes Management, which
 * matter.js adds to the device types that require them.
 */
const STOCK_CLUSTERS = new Set([0x0003, 0x0004, 0x0062]);

/**
 * Commands in an AcceptedCommandList (of the device's own clusters) that the row neither runs nor sends bad
 * arguments to, by the SDK's name: a command the hub offers must be driven by the matrix.
 */
export function unexercisedCommands(
  read: EndpointRead,
  row: { commands: { action: object }[]; errors: { action: object }[]; notDriven?: Record<string, string> },
): string[] {
  const exercised = new Set([
    ...[...row.commands, ...row.errors].flatMap(({ action }) => {
      const { invoke, command } = action as { invoke?: string; command?: string };
      return invoke ? [`${invoke}.${command}`] : [];
    }),
    ...Object.keys(row.notDriven ?? {}),
  ]);
  const servers = (read.raw[String(DESCRIPTOR)]?.["1"] as number[] | undefined) ?? [];
  const missing: string[] = [];
  for (const id of servers) {
    if (STOCK_CLUSTERS.has(id)) continue;
    const accepted = (read.raw[String(id)]?.[String(ACCEPTED_COMMAND_LIST)] as number[] | undefined) ?? [];
    const model = clusterModel(id);
    for (const command of accepted) {
      const name = [...(model?.commands ?? [])].find((c) => c.id === command && c.isRequest)?.name ?? hex(command);
      const path = `${sdkName(model?.name ?? hex(id))}.${sdkName(name)}`;
      if (!exercised.has(path)) missing.push(path);
    }
  }
  return missing;
}

/** The reference SDK's Python names where they differ from matter.js's (the SDK keeps acronyms upper case). */
const SDK_NAMES: Record<string, string> = {
  WebRtcTransportProvider: "WebRTCTransportProvider",
  ProvideIceCandidates: "ProvideICECandidates",
};
const sdkName = (name: string) => SDK_NAMES[name] ?? name;
