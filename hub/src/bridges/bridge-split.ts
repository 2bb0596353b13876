/**
 * A split proposal: the devices of one bridge spread over new bridges by area (or label), each within a device
 * limit, with the original filter narrowed by `within` (filter.ts) so that every entity the original selects lands on
 * exactly one new bridge, now and as Home Assistant changes (docs/decisions.md "Controller limits").
 */
import { createHash } from "node:crypto";
import { MAX_BRIDGE_NAME } from "./bridge-config.ts";
import type { BridgeFilter, FilterRule } from "./filter.ts";

export type SplitBy = "area" | "label";

/** One device of the original bridge as the split sees it: where it is. */
export interface SplitDevice {
  entityId: string;
  areaId: string | null;
  /** Label ids of the entity and its HA device. */
  labels: readonly string[];
}

/** An area or label and the devices of the original bridge in it. */
export interface SplitGroup {
  id: string;
  name: string;
  /** Devices of the original bridge in it (for `tooBig`: the exact count of a bridge of its own). */
  devices: number;
}

/** One bridge of the proposal (before its exact device count is planned). */
export interface ProposedBridge {
  name: string;
  filter: BridgeFilter;
  /** The areas or labels it takes; empty for the remainder. */
  groups: SplitGroup[];
  /**
   * Takes the entities without an area (or label) and any area (or label) no other new bridge takes; proposed only
   * when it would expose a device.
   */
  remainder: boolean;
  /** The devices it would expose (exact: a plan of its filter). */
  devices: number;
}

export interface SplitInput {
  by: SplitBy;
  maxDevices: number;
  base: { name: string; filter: BridgeFilter };
  devices: readonly SplitDevice[];
  nameOf(id: string): string;
  /**
   * The exact number of devices a filter exposes (a plan of it). Entities of one HA device may sit in different areas
   * or carry different labels, and a companion without its carrier becomes a device of its own (or none), so counts
   * by grouping are only estimates; every bin is checked with this before it takes a group.
   */
  count(filter: BridgeFilter): number;
}

export interface SplitPlan {
  bridges: ProposedBridge[];
  /** Groups with more devices than one bridge takes: each gets a bridge of its own, over the limit, and is named here. */
  tooBig: SplitGroup[];
}

const rule = (by: SplitBy, value: string): FilterRule => ({ type: by, value });

/**
 * Groups the devices and packs the groups into as few bridges as fit (largest first). Areas are disjoint: they are
 * spread evenly over the bridges they need. An entity may carry several labels, so label bridges form a chain:
 * each one excludes the labels of the bridges before it, a device goes to the first bridge holding one of its
 * labels, and only the last bridge is open (so a later label never pulls devices out of a closed one).
 */
export function planSplit(input: SplitInput): SplitPlan {
  const { by, maxDevices, base } = input;
  // A bridge already narrowed by this kind (made by an earlier split) splits among its own areas or labels only.
  const narrowed = new Set((base.filter.within ?? []).filter((r) => r.type === by).map((r) => r.value));
  const keysOf = (device: SplitDevice) =>
    (by === "area" ? (device.areaId ? [device.areaId] : []) : [...new Set(device.labels)]).filter(
      (key) => narrowed.size === 0 || narrowed.has(key),
    );
  const bins: { groups: SplitGroup[]; devices: number; earlier: string[] }[] = [];
  const filterOf = (groups: readonly SplitGroup[], earlier: readonly string[]): BridgeFilter => ({
    ...base.filter,
    exclude: [...base.filter.exclude, ...earlier.map((id) => rule(by, id))],
    // Rules of another type stay (AND); this type's rules become the bin's groups, a subset of them.
    within: [...(base.filter.within ?? []).filter((r) => r.type !== by), ...groups.map((group) => rule(by, group.id))],
  });
  const taken = () => bins.flatMap((bin) => bin.groups.map((group) => group.id));
  const tooBig: SplitGroup[] = [];
  const unplaced = new Set(input.devices.filter((device) => keysOf(device).length > 0));
  const withKeys = unplaced.size;
  while (unplaced.size > 0) {
    const counts = new Map<string, number>();
    for (const device of unplaced) for (const key of keysOf(device)) counts.set(key, (counts.get(key) ?? 0) + 1);
    const [next] = [...counts].sort((a, b) => b[1] - a[1] || input.nameOf(a[0]).localeCompare(input.nameOf(b[0])));
    if (!next) break;
    const [id, estimate] = next;
    const group: SplitGroup = { id, name: input.nameOf(id), devices: estimate };
    for (const device of [...unplaced]) if (keysOf(device).includes(id)) unplaced.delete(device);
    // Areas: the largest groups open as many bridges as the devices need, then each group joins the emptiest one
    // with room, so the bridges come out even and each keeps room to grow. Labels: only the last bridge is open.
    const needed = Math.ceil(withKeys / maxDevices);
    const open = by === "label" ? bins.slice(-1) : bins.length < needed ? [] : [...bins].sort((a, b) => a.devices - b.devices);
    const fitting = open.find((bin) => {
      if (bin.devices + estimate > maxDevices) return false;
      const exact = input.count(filterOf([...bin.groups, group], bin.earlier));
      if (exact > maxDevices) return false;
      bin.devices = exact;
      return true;
    });
    if (fitting) {
      fitting.groups.push(group);
      continue;
    }
    const earlier = by === "label" ? taken() : [];
    const devices = input.count(filterOf([group], earlier));
    if (devices > maxDevices) tooBig.push({ ...group, devices });
    bins.push({ groups: [group], devices, earlier });
  }
  const bridges: ProposedBridge[] = bins.map((bin) => ({
    name: "",
    filter: filterOf(bin.groups, bin.earlier),
    groups: bin.groups,
    remainder: false,
    devices: bin.devices,
  }));
  const restFilter: BridgeFilter = {
    ...base.filter,
    exclude: [...base.filter.exclude, ...taken().map((id) => rule(by, id))],
  };
  const rest = input.count(restFilter);
  if (rest > 0 || bridges.length === 0) {
    bridges.push({ name: "", filter: restFilter, groups: [], remainder: true, devices: rest });
  }
  nameBridges(base.name, bridges);
  return { bridges, tooBig };
}

/** "Home · Kitchen", "Home · Kitchen +2", "Home · other": within Matter's 32 bytes, distinct. */
function nameBridges(base: string, bridges: ProposedBridge[]): void {
  const used = new Set<string>();
  for (const bridge of bridges) {
    const [first, ...more] = bridge.groups;
    const label = first ? `${first.name.slice(0, 18)}${more.length > 0 ? ` +${more.length}` : ""}` : "other";
    let name = `${base.slice(0, Math.max(1, MAX_BRIDGE_NAME - label.length - 3)).trimEnd()} · ${label}`;
    for (let n = 2; used.has(name); n++) name = `${name.slice(0, MAX_BRIDGE_NAME - 3)} ${n}`;
    used.add(name);
    bridge.name = cutBytes(name);
  }
}

/** Matter counts the 32 in UTF-8 bytes; "·" and umlauts take two. */
function cutBytes(text: string): string {
  let out = text;
  while (Buffer.byteLength(out) > MAX_BRIDGE_NAME) out = out.slice(0, -1);
  return out.trimEnd();
}

/** A fingerprint of what a proposal creates: the confirm step refuses a proposal that no longer matches. */
export function proposalToken(bridges: readonly Pick<ProposedBridge, "name" | "filter">[]): string {
  const body = JSON.stringify(bridges.map(({ name, filter }) => ({ name, filter })));
  return createHash("sha256").update(body).digest("hex").slice(0, 32);
}
