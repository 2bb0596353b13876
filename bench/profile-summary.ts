/**
 * Summarises V8 CPU profiles (`npm run bench -- --profile` writes them to bench/results/profiles/) by self time:
 * whose code the process spent its CPU in — the hub's or the portal's own files, matter.js (@matter/*), other
 * packages, Node's internals, the garbage collector — and the hottest functions.
 *
 *   node --import tsx bench/profile-summary.ts <file.cpuprofile | folder> [--top 25]
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Which bucket a script URL belongs to. */
export function ownerOf(url: string): string {
  if (url === "") return "(native / VM)";
  const modules = url.lastIndexOf("node_modules/");
  if (modules >= 0) {
    const rest = url.slice(modules + "node_modules/".length).split("/");
    const name = rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1]}` : (rest[0] ?? "?");
    return name.startsWith("@matter/") || name.startsWith("@project-chip/") ? `matter.js (${name})` : name;
  }
  if (url.startsWith("node:")) return "node internals";
  const app = url.match(/\/(hub|portal)\/src\/([^/]+)/);
  if (app) return `ours: ${app[1]}/src/${(app[2] ?? "").replace(/\.[jt]s$/, "")}`;
  const shared = url.match(/\/(lib|bench)\/([^/]+)/);
  if (shared) return `ours: ${shared[1]}/${(shared[2] ?? "").replace(/\.[jt]s$/, "")}`;
  return url;
}

function summarise(profile: Profile, top: number): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const owners = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const node = byId.get(id);
    const dt = profile.timeDeltas[index] ?? 0;
    if (!node) return;
    total += dt;
    const { functionName, url, lineNumber } = node.callFrame;
    const owner =
      functionName === "(garbage collector)" ? "(garbage collector)" : functionName === "(idle)" ? "(idle)" : ownerOf(url);
    owners.set(owner, (owners.get(owner) ?? 0) + dt);
    const fn = `${functionName || "(anonymous)"}  ${url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*?\/(hub|portal|lib|bench)\//, "$1/")}:${lineNumber + 1}`;
    functions.set(fn, (functions.get(fn) ?? 0) + dt);
  });
  const busy = total - (owners.get("(idle)") ?? 0);
  const pct = (value: number) => `${((value / busy) * 100).toFixed(1).padStart(5)} %`;
  const lines = [
    `profiled ${(total / 1e6).toFixed(1)} s, busy ${(busy / 1e6).toFixed(1)} s (percentages of busy time)`,
    "",
    "by owner:",
  ];
  for (const [owner, value] of [...owners]
    .filter(([o]) => o !== "(idle)")
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)) {
    lines.push(`  ${pct(value)}  ${owner}`);
  }
  lines.push("", "longest stretches without an idle sample (what blocked the event loop):");
  for (const stretch of longStretches(profile, byId, 5)) lines.push(`  ${stretch}`);
  lines.push("", "hottest functions (self time):");
  for (const [fn, value] of [...functions]
    .filter(([f]) => !f.startsWith("(idle)"))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)) {
    lines.push(`  ${pct(value)}  ${fn}`);
  }
  return lines.join("\n");
}

/**
 * The `count` longest runs of consecutive non-idle samples, each with its length and the owners that took most of
 * it: a long run is a task that held the event loop (or the GC pausing it).
 */
function longStretches(profile: Profile, byId: Map<number, ProfileNode>, count: number): string[] {
  const stretches: { start: number; ms: number; owners: Map<string, number> }[] = [];
  let current: { start: number; ms: number; owners: Map<string, number> } | undefined;
  let clock = 0;
  profile.samples.forEach((id, index) => {
    const dt = profile.timeDeltas[index] ?? 0;
    clock += dt;
    const node = byId.get(id);
    const name = node?.callFrame.functionName;
    if (!node || name === "(idle)") {
      if (current) stretches.push(current);
      current = undefined;
      return;
    }
    current ??= { start: clock, ms: 0, owners: new Map() };
    current.ms += dt / 1000;
    const owner = name === "(garbage collector)" || name === "(program)" ? name : ownerOf(node.callFrame.url);
    current.owners.set(owner, (current.owners.get(owner) ?? 0) + dt / 1000);
  });
  if (current) stretches.push(current);
  return stretches
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count)
    .map((stretch) => {
      const owners = [...stretch.owners]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .map(([owner, ms]) => `${owner} ${ms.toFixed(0)} ms`)
        .join(", ");
      return `${stretch.ms.toFixed(0).padStart(5)} ms at ${(stretch.start / 1e6).toFixed(1)} s: ${owners}`;
    });
}

function profilesIn(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".cpuprofile"))
    .map((name) => join(path, name));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { top: { type: "string", default: "25" } } });
  if (positionals.length === 0) {
    console.error("usage: node --import tsx bench/profile-summary.ts <file.cpuprofile | folder> [--top N]");
    process.exit(2);
  }
  for (const file of positionals.flatMap(profilesIn)) {
    console.log(`\n# ${file}\n`);
    console.log(summarise(JSON.parse(readFileSync(file, "utf8")) as Profile, Number(values.top)));
  }
}
