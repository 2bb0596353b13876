/**
 * Package installs as jobs a client can follow, leave and come back to (docs/plugins.md "Install progress, cancel
 * and failures"): each has an id, its progress lines in order (numbered, so a stream that reconnects asks for what
 * it missed), and ends `succeeded`, `failed` (one sentence, npm's output as details) or `cancelled`. Jobs live in
 * memory: the last {@link KEPT_JOBS}, for as long as the hub runs. The installer runs one at a time; the others wait
 * `queued`.
 */
import { randomUUID } from "node:crypto";
import type { InstallWatch } from "./installer.ts";
import { PluginPackageError } from "./manifest.ts";
import { NpmError } from "./npm-failure.ts";
import { type InstallPhase, laterPhase } from "./npm-progress.ts";
import type { InstallResult } from "./plugin-catalog.ts";

export type InstallJobState = "queued" | "running" | "succeeded" | "failed" | "cancelled";

/** Where the package comes from: a registry spec, or an uploaded archive (its file name as sent, and size). */
export type InstallJobSource = { type: "registry"; spec: string } | { type: "upload"; file: string; bytes: number };

/** One progress line; `seq` counts from 1 per job. */
export interface InstallEvent {
  seq: number;
  time: string;
  phase: InstallPhase;
  message: string;
}

/** A job as the API shows it. */
export interface InstallJobView {
  id: string;
  source: InstallJobSource;
  state: InstallJobState;
  phase: InstallPhase;
  /** False once the job ended, and while the package is being recorded (it completes then). */
  cancellable: boolean;
  startedAt: string;
  finishedAt: string | null;
  /** The latest progress lines, oldest first (at most {@link KEPT_EVENTS}); `droppedEvents` were before them. */
  events: InstallEvent[];
  droppedEvents: number;
  result: InstallResult | null;
  /** `code`: npm-failure.ts's kinds, `refused` (the hub's own package checks), or `internal`. */
  error: { code: string; message: string; details: string | null } | null;
}

/** What a follower hears: each progress line, then the end with the final view. */
export type InstallJobMessage = { type: "progress"; event: InstallEvent } | { type: "end"; job: InstallJobView };

export const KEPT_JOBS = 20;
export const KEPT_EVENTS = 500;

/** A cancel that cannot be done: the job ended, or it is recording the package. */
export class InstallJobConflict extends Error {
  override name = "InstallJobConflict";
}

class InstallJob {
  readonly id = randomUUID();
  readonly startedAt = new Date().toISOString();
  readonly abort = new AbortController();
  readonly listeners = new Set<(message: InstallJobMessage) => void>();
  state: InstallJobState = "queued";
  phase: InstallPhase = "queued";
  finishedAt: string | null = null;
  events: InstallEvent[] = [];
  dropped = 0;
  seq = 0;
  result: InstallResult | null = null;
  error: InstallJobView["error"] = null;
  /** Settles with the install (rejects with its original error): what the synchronous install routes wait for. */
  settled!: Promise<InstallResult>;

  constructor(readonly source: InstallJobSource) {}

  get finished(): boolean {
    return this.state === "succeeded" || this.state === "failed" || this.state === "cancelled";
  }

  view(): InstallJobView {
    return {
      id: this.id,
      source: this.source,
      state: this.state,
      phase: this.phase,
      cancellable: !this.finished && this.phase !== "recording",
      startedAt: this.startedAt,
      finishedAt: this.finishedAt,
      events: [...this.events],
      droppedEvents: this.dropped,
      result: this.result,
      error: this.error,
    };
  }

  progress(phase: InstallPhase, message: string): void {
    if (this.finished) return;
    if (this.state === "queued") this.state = "running";
    this.phase = laterPhase(this.phase, phase);
    const event: InstallEvent = { seq: ++this.seq, time: new Date().toISOString(), phase: this.phase, message };
    this.events.push(event);
    if (this.events.length > KEPT_EVENTS) {
      this.events.shift();
      this.dropped++;
    }
    for (const listener of this.listeners) listener({ type: "progress", event });
  }

  finish(state: "succeeded" | "failed" | "cancelled", outcome: { result?: InstallResult; error?: unknown }): void {
    if (this.finished) return;
    this.state = state;
    this.finishedAt = new Date().toISOString();
    if (outcome.result) this.result = outcome.result;
    if (outcome.error !== undefined) this.error = describeError(outcome.error);
    const view = this.view();
    for (const listener of this.listeners) listener({ type: "end", job: view });
    this.listeners.clear();
  }
}

function describeError(error: unknown): InstallJobView["error"] {
  if (error instanceof NpmError) return { code: error.code, message: error.message, details: error.details };
  if (error instanceof PluginPackageError) return { code: "refused", message: error.message, details: null };
  return { code: "internal", message: error instanceof Error ? error.message : String(error), details: null };
}

export class InstallJobs {
  readonly #jobs = new Map<string, InstallJob>();

  /**
   * Starts `run` as a job: `run` gets the job's progress and cancel signal (installer.ts {@link InstallWatch}).
   * Resolves at once with the job; `settled` follows the install.
   */
  start(
    source: InstallJobSource,
    run: (watch: InstallWatch) => Promise<InstallResult>,
  ): { id: string; settled: Promise<InstallResult> } {
    const job = new InstallJob(source);
    this.#jobs.set(job.id, job);
    this.#trim();
    const watch: InstallWatch = { signal: job.abort.signal, progress: (phase, message) => job.progress(phase, message) };
    let running: Promise<InstallResult>;
    try {
      running = run(watch);
    } catch (error) {
      running = Promise.reject(error);
    }
    job.settled = running.then(
      (result) => {
        job.finish("succeeded", { result });
        return result;
      },
      (error: unknown) => {
        const cancelled = error instanceof NpmError && error.code === "cancelled";
        job.finish(cancelled ? "cancelled" : "failed", { error });
        throw error;
      },
    );
    // A job nobody awaits (the job API) must not become an unhandled rejection.
    job.settled.catch(() => undefined);
    return { id: job.id, settled: job.settled };
  }

  get(id: string): InstallJobView | undefined {
    return this.#jobs.get(id)?.view();
  }

  /** Newest first. */
  list(): InstallJobView[] {
    return [...this.#jobs.values()].reverse().map((job) => job.view());
  }

  /**
   * Cancels a job: npm's process group is ended and the install's staged copy dropped (installer.ts), then this
   * resolves with the ended job. A queued job ends at once without running. Throws {@link InstallJobConflict}
   * when the job ended already or is recording the package; undefined for an unknown id.
   */
  async cancel(id: string): Promise<InstallJobView | undefined> {
    const job = this.#jobs.get(id);
    if (!job) return undefined;
    if (job.finished) throw new InstallJobConflict(`This installation has already ended (${job.state}).`);
    if (job.phase === "recording") {
      throw new InstallJobConflict("This installation is recording the package and can no longer be cancelled.");
    }
    job.abort.abort();
    if (job.state === "queued") {
      const subject = job.source.type === "registry" ? job.source.spec : job.source.file;
      job.finish("cancelled", {
        error: new NpmError(
          `The installation of ${subject} was cancelled before it started. Nothing was installed.`,
          "cancelled",
        ),
      });
    } else {
      await job.settled.catch(() => undefined);
    }
    return job.view();
  }

  /**
   * Follows a job: the kept events after `afterSeq` first, then each new one, then the end (also at once for an
   * ended job). Returns the unsubscribe function, or undefined for an unknown id. Replay and subscription happen in
   * one synchronous step, so no event falls between them.
   */
  follow(id: string, afterSeq: number, listener: (message: InstallJobMessage) => void): (() => void) | undefined {
    const job = this.#jobs.get(id);
    if (!job) return undefined;
    for (const event of job.events) if (event.seq > afterSeq) listener({ type: "progress", event });
    if (job.finished) {
      listener({ type: "end", job: job.view() });
      return () => {};
    }
    job.listeners.add(listener);
    return () => job.listeners.delete(listener);
  }

  /** Drops the oldest ended jobs beyond {@link KEPT_JOBS}; running ones stay. */
  #trim(): void {
    for (const [id, job] of this.#jobs) {
      if (this.#jobs.size <= KEPT_JOBS) return;
      if (job.finished) this.#jobs.delete(id);
    }
  }
}
