/**
 * A measured process (the hub or the reference bridge): spawned fresh by a scenario driver with the probe preloaded
 * and `--expose-gc`, its stdout read line by line (readiness is a log line), its memory, CPU and event-loop delay
 * asked over IPC, and always stopped again (SIGTERM, then SIGKILL) by its pid.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import type { ProbeLoop, ProbeMemory } from "../sut-probe.ts";
import { nodeArgsFor, REPO, type Runtime } from "./paths.ts";

export interface SubjectOptions {
  /** Repo-relative entry point, e.g. `hub/src/main.ts`. */
  source: string;
  runtime: Runtime;
  env: Record<string, string>;
  /** Write a V8 CPU profile of the whole process life into this folder. */
  cpuProfDir?: string | undefined;
  /** Echo the process's stderr (and stdout lines that are not JSON) to ours, for debugging. */
  verbose?: boolean | undefined;
  /** Extra node options, e.g. `--max-old-space-size=256`. */
  nodeArgs?: string[] | undefined;
}

export interface CpuTimes {
  userMs: number;
  systemMs: number;
  uptimeMs: number;
}

type LineListener = (line: string, at: number) => void;

export class Subject {
  readonly child: ChildProcess;
  /** performance.now() just before spawn: "process start" for start-up times. */
  readonly spawnedAt: number;
  readonly #listeners = new Set<LineListener>();
  readonly #pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  #nextId = 1;
  #stderr: string[] = [];
  readonly exited: Promise<number | null>;

  constructor(options: SubjectOptions) {
    const args = ["--expose-gc"];
    if (options.cpuProfDir) args.push("--cpu-prof", `--cpu-prof-dir=${options.cpuProfDir}`);
    args.push(...(options.nodeArgs ?? []));
    args.push(...nodeArgsFor(options.source, options.runtime));
    this.spawnedAt = performance.now();
    this.child = spawn(process.execPath, args, {
      cwd: REPO,
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    this.exited = new Promise((resolve) => this.child.once("exit", (code) => resolve(code)));
    createInterface({ input: this.child.stdout! }).on("line", (line) => {
      const at = performance.now();
      if (options.verbose && !line.startsWith("{")) process.stderr.write(`[subject] ${line}\n`);
      for (const listener of this.#listeners) listener(line, at);
    });
    createInterface({ input: this.child.stderr! }).on("line", (line) => {
      this.#stderr.push(line);
      if (this.#stderr.length > 200) this.#stderr.shift();
      if (options.verbose) process.stderr.write(`[subject!] ${line}\n`);
    });
    this.child.on("message", (message: { id?: number; value?: unknown; error?: string }) => {
      if (typeof message?.id !== "number") return;
      const waiter = this.#pending.get(message.id);
      if (!waiter) return;
      this.#pending.delete(message.id);
      if (message.error) waiter.reject(new Error(message.error));
      else waiter.resolve(message.value);
    });
    this.exited.then((code) => {
      for (const waiter of this.#pending.values()) waiter.reject(new Error(`the process exited (${code})`));
      this.#pending.clear();
    });
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** The last lines of stderr, for error messages. */
  stderrTail(lines = 30): string {
    return this.#stderr.slice(-lines).join("\n");
  }

  onLine(listener: LineListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Resolves with the arrival times (performance.now()) and parsed JSON of the first `count` stdout lines that
   * `match` accepts; rejects on timeout or exit, with the process's stderr.
   */
  waitForLines<T = Record<string, unknown>>(
    match: (line: Record<string, unknown>) => boolean,
    count: number,
    timeoutMs: number,
  ): Promise<{ at: number; line: T }[]> {
    const found: { at: number; line: T }[] = [];
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => finish(new Error(`timed out after ${timeoutMs} ms (${found.length}/${count} lines)`)),
        timeoutMs,
      );
      const finish = (error?: Error) => {
        clearTimeout(timer);
        off();
        if (error) reject(new Error(`${error.message}\n--- stderr of pid ${this.pid} ---\n${this.stderrTail()}`));
        else resolve(found);
      };
      const off = this.onLine((text, at) => {
        if (!text.startsWith("{")) return;
        let parsed: Record<string, unknown>;
        try {
          parsed = JSON.parse(text) as Record<string, unknown>;
        } catch {
          return;
        }
        if (!match(parsed)) return;
        found.push({ at, line: parsed as T });
        if (found.length >= count) finish();
      });
      this.exited.then((code) => finish(new Error(`the process exited with ${code}`)));
    });
  }

  #ask<T>(request: Record<string, unknown>): Promise<T> {
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      if (!this.child.connected) {
        reject(new Error(`the process is gone (pid ${this.pid})`));
        return;
      }
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.child.send({ ...request, id }, (error) => {
        if (!error) return;
        this.#pending.delete(id);
        reject(error);
      });
    });
  }

  memory(gc: boolean): Promise<ProbeMemory> {
    return this.#ask({ probe: "memory", gc });
  }

  cpu(): Promise<CpuTimes> {
    return this.#ask({ probe: "cpu" });
  }

  resetLoopDelay(): Promise<void> {
    return this.#ask({ probe: "loop-reset" });
  }

  loopDelay(): Promise<ProbeLoop> {
    return this.#ask({ probe: "loop" });
  }

  /** Writes the sampling heap profile (process started with BENCH_HEAP_SAMPLING=1) to `path`. */
  heapProfile(path: string): Promise<string> {
    return this.#ask({ probe: "heap-profile", path });
  }

  /** Writes a heap snapshot to `path` (blocks the process for seconds on a large heap). */
  heapSnapshot(path: string): Promise<string> {
    return this.#ask({ probe: "heap-snapshot", path });
  }

  /** Sends over IPC; a process that is gone gets nothing (its death is reported by `exited`, not by a throw). */
  send(message: unknown): void {
    if (!this.child.connected) return;
    this.child.send(message as never, (error) => {
      if (error && this.child.connected) this.#stderr.push(`[bench] IPC send failed: ${error.message}`);
    });
  }

  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
  async stop(graceMs = 20_000): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => this.child.kill("SIGKILL"), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}
