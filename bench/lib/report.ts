/** Result rows, target verdicts, the printed table and the JSON files in bench/results/. */

import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, freemem, loadavg, totalmem } from "node:os";
import { RESULTS_DIR, type Runtime } from "./paths.ts";
import { round } from "./stats.ts";

export type Verdict = "PASS" | "MISS" | "-";

/** One printed line: a measured quantity for the hub, the reference and their ratio, with an optional target. */
export interface Row {
  scenario: string;
  case: string;
  metric: string;
  unit: string;
  hub: number | null;
  reference: number | null;
  /** hub / reference, when both exist. */
  ratio: number | null;
  target?: string;
  verdict: Verdict;
}

export function row(
  scenario: string,
  kase: string,
  metric: string,
  unit: string,
  hub: number | null,
  reference: number | null,
  target?: { text: string; pass: boolean } | undefined,
): Row {
  if (hub !== null && !Number.isFinite(hub)) hub = null;
  if (reference !== null && !Number.isFinite(reference)) reference = null;
  const ratio = hub !== null && reference !== null && reference !== 0 ? round(hub / reference, 2) : null;
  return {
    scenario,
    case: kase,
    metric,
    unit,
    hub: hub === null ? null : round(hub, unit === "ms" || unit === "%" ? 1 : 1),
    reference: reference === null ? null : round(reference, 1),
    ratio,
    ...(target ? { target: target.text } : {}),
    verdict: target ? (target.pass ? "PASS" : "MISS") : "-",
  };
}

export function machine(runtime: Runtime) {
  const list = cpus();
  return {
    cpus: list.length,
    cpuModel: list[0]?.model ?? "unknown",
    memoryGiB: round(totalmem() / 1024 ** 3, 1),
    freeMemoryGiB: round(freemem() / 1024 ** 3, 1),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverage: loadavg().map((value) => round(value, 2)),
    runtime,
  };
}

export function writeResult(scenario: string, content: object): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = `${RESULTS_DIR}/${scenario}.json`;
  writeFileSync(path, `${JSON.stringify(content, null, 2)}\n`);
  return path;
}

const fmt = (value: number | null) => (value === null ? "—" : String(value));

/** A plain-text table (also valid Markdown). */
export function table(rows: Row[]): string {
  const header = ["case", "metric", "measured", "reference", "ratio", "target", ""];
  const lines = rows.map((r) => [
    r.case,
    `${r.metric} (${r.unit})`,
    fmt(r.hub),
    fmt(r.reference),
    r.ratio === null ? "—" : `${r.ratio}x`,
    r.target ?? "",
    r.verdict === "-" ? "" : r.verdict,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] as string).length)));
  const render = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(" | ")} |`;
  return [render(header), render(widths.map((w) => "-".repeat(w))), ...lines.map(render)].join("\n");
}
