/**
 * Summarises what `npm run bench -- --scenario startup --heap` writes to bench/results/heap/<case>/:
 *
 * - `<subject>.heapprofile` (V8's sampling heap profiler from process start until running, collected objects
 *   included): allocated bytes by owner (our files, each matter.js package, other packages, Node) and by allocating
 *   function, and by the first frame of ours on the stack (which of our code paths made matter.js allocate).
 * - `<subject>.heapsnapshot` (once running, after a forced GC): the live heap by constructor; given two snapshots
 *   (hub, reference), the constructors the first holds more of.
 *
 *   node --import tsx bench/heap-summary.ts <file.heapprofile> [--top 25]
 *   node --max-old-space-size=8192 --import tsx bench/heap-summary.ts <hub.heapsnapshot> [<reference.heapsnapshot>]
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { ownerOf } from "./profile-summary.ts";

interface SamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

const MB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / MB).toFixed(1).padStart(7)} MB`;

function ranked(map: Map<string, number>, top: number): string[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, bytes]) => `${mb(bytes)}  ${name}`);
}

const add = (map: Map<string, number>, key: string, bytes: number) => map.set(key, (map.get(key) ?? 0) + bytes);

function shortUrl(url: string): string {
  return url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*?\/(hub|portal|lib|bench|simulators)\//, "$1/");
}

/** Allocated bytes by owner, function and our nearest calling frame. */
export function summariseProfile(head: SamplingNode, top: number): string {
  const owners = new Map<string, number>();
  const functions = new Map<string, number>();
  const viaOurs = new Map<string, number>();
  let total = 0;
  const walk = (node: SamplingNode, ours: string | undefined) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const owner = ownerOf(url);
    const here = owner.startsWith("ours:") ? `${functionName || "(anonymous)"}  ${shortUrl(url)}:${lineNumber + 1}` : ours;
    if (node.selfSize > 0) {
      total += node.selfSize;
      add(owners, owner, node.selfSize);
      add(functions, `${functionName || "(anonymous)"}  ${shortUrl(url)}:${lineNumber + 1}`, node.selfSize);
      add(viaOurs, here ?? "(no frame of ours)", node.selfSize);
    }
    for (const child of node.children) walk(child, here);
  };
  walk(head, undefined);
  return [
    `allocated ${mb(total).trim()} in all (sampled, collected objects included)`,
    "",
    "by owner of the allocating function:",
    ...ranked(owners, top),
    "",
    "by allocating function:",
    ...ranked(functions, top),
    "",
    "by the nearest frame of ours on the stack:",
    ...ranked(viaOurs, top),
  ].join("\n");
}

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

/** Live bytes and counts by constructor (object nodes by name, others by node type). */
export function histogram(snapshot: Snapshot): Map<string, { bytes: number; count: number }> {
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf("type");
  const nameAt = fields.indexOf("name");
  const sizeAt = fields.indexOf("self_size");
  const result = new Map<string, { bytes: number; count: number }>();
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const type = types[snapshot.nodes[i + typeAt] as number] ?? "?";
    const name = type === "object" || type === "closure" ? (snapshot.strings[snapshot.nodes[i + nameAt] as number] ?? "?") : "";
    const key = name ? `${type} ${name}` : `(${type})`;
    const entry = result.get(key) ?? { bytes: 0, count: 0 };
    entry.bytes += snapshot.nodes[i + sizeAt] as number;
    entry.count++;
    result.set(key, entry);
  }
  return result;
}

function summariseSnapshots(paths: string[], top: number): string {
  const [first, second] = paths.map((path) => histogram(JSON.parse(readFileSync(path, "utf8")) as Snapshot));
  if (!first) return "";
  const total = (h: Map<string, { bytes: number }>) => [...h.values()].reduce((sum, e) => sum + e.bytes, 0);
  const lines = [`${paths[0]}: ${mb(total(first)).trim()} live`];
  if (!second) {
    const bytes = new Map([...first].map(([name, e]) => [`${name} (${e.count})`, e.bytes]));
    return [...lines, ...ranked(bytes, top)].join("\n");
  }
  lines.push(`${paths[1]}: ${mb(total(second)).trim()} live`, "", "held more by the first (bytes, count difference):");
  const diff = new Map<string, number>();
  for (const [name, e] of first) {
    const other = second.get(name) ?? { bytes: 0, count: 0 };
    diff.set(`${name} (${e.count - other.count >= 0 ? "+" : ""}${e.count - other.count})`, e.bytes - other.bytes);
  }
  return [...lines, ...ranked(diff, top)].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: "string", default: "25" } } });
  const top = Number(values.top);
  if (positionals[0]?.endsWith(".heapprofile")) {
    const profile = JSON.parse(readFileSync(positionals[0], "utf8")) as { head: SamplingNode };
    console.log(summariseProfile(profile.head, top));
  } else if (positionals[0]?.endsWith(".heapsnapshot")) {
    console.log(summariseSnapshots(positionals, top));
  } else {
    console.error("usage: heap-summary.ts <file.heapprofile> | <a.heapsnapshot> [<b.heapsnapshot>] [--top N]");
    process.exitCode = 2;
  }
}
