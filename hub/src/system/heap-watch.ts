/**
 * Warns in the log before the JavaScript heap runs out, instead of the process dying with V8's "heap out of memory"
 * trace. The heap is judged after major garbage collections only (what is still alive then is what the hub needs),
 * never by polling: V8 reports each collection to a PerformanceObserver. One warning per crossing of the threshold;
 * once the heap is back well below it, the next crossing warns again.
 */
import { constants, PerformanceObserver } from "node:perf_hooks";
import { getHeapSpaceStatistics, getHeapStatistics } from "node:v8";
import type { Logger } from "../../../lib/logger.ts";

/** Where heap figures come from: V8 in production, a fake in tests. */
export interface HeapSource {
  /** The old generation's limit in bytes: what `--max-old-space-size` sets, and what running out of means dying. */
  limit(): number;
  /** Bytes of the old generation in use right now (after a major GC: what is alive). */
  used(): number;
  /** Calls `listener` after major (mark-compact) garbage collections; returns the function that stops it. */
  onMajorGc(listener: () => void): () => void;
}

/** What the warning says about the home, read when it is written. */
export interface HeapWatchLoad {
  /** Home Assistant entities exposed as Matter devices, over all bridges. */
  devices: number;
  bridges: number;
}

export interface HeapWatchOptions {
  source: HeapSource;
  load: () => HeapWatchLoad;
  log: Logger;
  /** Share of the limit in use after a major GC that warns (0.85). */
  warnAt?: number;
  /** Share below which a later crossing warns again (0.75). */
  rearmBelow?: number;
}

const MB = 1024 * 1024;
/** V8's young generation: three semi-spaces of 16 MB on 64-bit unless `--max-semi-space-size` says otherwise. */
const DEFAULT_SEMI_SPACE_MB = 16;
const YOUNG_SPACES = new Set(["new_space", "new_large_object_space"]);

/** The value of a V8 size option (MB) given to this process on its command line or in NODE_OPTIONS. */
function nodeOption(name: string): number | undefined {
  const args = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];
  const pattern = new RegExp(`^--${name.replaceAll("-", "[-_]")}=(\\d+)$`);
  for (const arg of args.reverse()) {
    const match = pattern.exec(arg);
    if (match) return Number(match[1]);
  }
  return undefined;
}

/**
 * V8's own figures. `heap_size_limit` adds the young generation to `--max-old-space-size`; the process dies when the
 * old generation is full, so the limit is the old generation's (the option when given, else the total minus the
 * young generation) and the use is that of every space but the young ones. Major GCs come from `perf_hooks`.
 */
export const v8HeapSource: HeapSource = {
  limit() {
    const old = nodeOption("max-old-space-size");
    if (old !== undefined) return old * MB;
    const semi = nodeOption("max-semi-space-size") ?? DEFAULT_SEMI_SPACE_MB;
    return Math.max(0, getHeapStatistics().heap_size_limit - 3 * semi * MB);
  },
  used() {
    let used = 0;
    for (const space of getHeapSpaceStatistics()) if (!YOUNG_SPACES.has(space.space_name)) used += space.space_used_size;
    return used;
  },
  onMajorGc(listener) {
    const observer = new PerformanceObserver((list) => {
      const major = list.getEntries().some((entry) => {
        const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
        return kind === constants.NODE_PERFORMANCE_GC_MAJOR;
      });
      if (major) listener();
    });
    observer.observe({ entryTypes: ["gc"] });
    return () => observer.disconnect();
  },
};

/** Starts watching; returns the function that stops it. */
export function watchHeap(options: HeapWatchOptions): () => void {
  const { source, load, log } = options;
  const warnAt = options.warnAt ?? 0.85;
  const rearmBelow = options.rearmBelow ?? 0.75;
  let warned = false;
  return source.onMajorGc(() => {
    const limit = source.limit();
    const used = source.used();
    if (limit <= 0) return;
    const share = used / limit;
    if (warned) {
      if (share < rearmBelow) warned = false;
      return;
    }
    if (share < warnAt) return;
    warned = true;
    const { devices, bridges } = load();
    const usedMb = Math.round(used / MB);
    const limitMb = Math.round(limit / MB);
    log.warn(
      { heapUsedMb: usedMb, heapLimitMb: limitMb, devices, bridges },
      `Memory is running low: ${usedMb} MB of the hub's ${limitMb} MB heap are in use after garbage collection, ` +
        `with ${devices} ${devices === 1 ? "entity" : "entities"} exposed on ${bridges} ${bridges === 1 ? "bridge" : "bridges"}. ` +
        "If it reaches the limit the hub stops. Expose fewer entities, or raise the add-on option heap_size_mb " +
        "if the host has memory to spare (DOCS.md, option heap_size_mb).",
    );
    // Out to the log now: if the heap does run out, V8 ends the process before buffered lines are written.
    log.flush();
  });
}
