/**
 * The Matter reference SDK's Python controller (hub/test/interop/chip_driver.py) as a TypeScript object: one Python
 * process holding one or more controllers (one fabric each), driven over JSON lines. Reports and resubscription
 * notices arrive as events the tests wait for. The SDK's own log goes to a file under test-artifacts/interop/.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { interopPaths } from "./interop-env.ts";

export interface ChipError {
  type: "InteractionModelError" | "ChipStackError" | string;
  /** Interaction model status name, e.g. `ConstraintError`, `UnsupportedCommand`, `Failure`. */
  status?: string;
  code?: number;
  clusterStatus?: number | null;
  message: string;
}

/** A failed controller operation; `detail` says what the SDK raised. */
export class ChipCallError extends Error {
  constructor(
    readonly op: string,
    readonly detail: ChipError,
  ) {
    super(`${op}: ${detail.type}${detail.status ? ` ${detail.status}` : ""}: ${detail.message}`);
  }
}

export interface ChipReport {
  event: "report";
  controller: string;
  subscription: number;
  node: number;
  endpoint: number;
  cluster: string;
  attribute: string;
  value: unknown;
}

type ChipEvent = ChipReport | { event: "resubscribed" | "resubscribing" | "ready" | "stopped"; [key: string]: unknown };

/** `{"2": {"OnOff": {"OnOff": true}}}`: endpoint, cluster, attribute, as the SDK names them. */
export type ReadResult = Record<string, Record<string, Record<string, unknown>>>;
/** [endpoint or null, cluster or null, attribute or null]: nulls are wildcards. */
export type AttributePathSpec = [number | null, string?, string?];

interface Waiter {
  match: (event: ChipEvent) => boolean;
  resolve: (event: ChipEvent) => void;
  reject: (error: Error) => void;
}

export class ChipController {
  readonly #child: ChildProcess;
  readonly #log: NodeJS.WritableStream;
  readonly #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void; op: string }>();
  readonly #events: ChipEvent[] = [];
  readonly #waiters = new Set<Waiter>();
  #nextId = 1;
  readonly #exited: Promise<number | null>;

  private constructor(child: ChildProcess, log: NodeJS.WritableStream) {
    this.#child = child;
    this.#log = log;
    this.#exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on("line", (line) => this.#onLine(line));
    void this.#exited.then((code) => {
      // Nothing more will arrive: fail every caller and waiter now rather than at their time-outs.
      for (const { reject, op } of this.#pending.values()) reject(new Error(`${op}: the controller exited (${code})`));
      this.#pending.clear();
      for (const waiter of this.#waiters) waiter.reject(new Error(`the controller exited (${code}) before the event`));
      this.#waiters.clear();
    });
  }

  /** Starts the Python process and its controllers (`names`, one fabric each) with `storage` for their keys. */
  static async start(options: { names: string[]; storage: string; logName: string }): Promise<ChipController> {
    const paths = interopPaths();
    mkdirSync(paths.artifacts, { recursive: true });
    const child = spawn(paths.chipPython, ["-u", join(paths.interopDir, "chip_driver.py")], {
      stdio: ["pipe", "pipe", "pipe"],
      // The SDK keeps its KVS in the working directory's /tmp files and /data (bind-mounted per run: netns.sh).
      cwd: paths.artifacts,
    });
    // The SDK's native log goes to stdout between the driver's JSON lines, Python's logging to stderr: both to one file.
    const log = createWriteStream(join(paths.artifacts, `${options.logName}.chip.log`));
    child.stderr?.pipe(log, { end: false });
    const controller = new ChipController(child, log);
    await controller.waitFor((event) => event.event === "ready", 60_000);
    await controller.call("init", {
      storage: options.storage,
      paa: paths.paaDir,
      controllers: options.names.map((name, index) => ({ name, fabricId: index + 1, nodeId: 112233 + index })),
    });
    return controller;
  }

  #onLine(line: string): void {
    let message: { id?: number; ok?: boolean; result?: unknown; error?: ChipError; event?: string };
    try {
      message = JSON.parse(line);
    } catch {
      this.#log.write(`${line}\n`); // the SDK's own log line
      return;
    }
    if (message.id !== undefined) {
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      if (message.ok) pending.resolve(message.result);
      else pending.reject(new ChipCallError(pending.op, message.error as ChipError));
      return;
    }
    const event = message as ChipEvent;
    this.#events.push(event);
    for (const waiter of this.#waiters) {
      if (waiter.match(event)) {
        this.#waiters.delete(waiter);
        waiter.resolve(event);
      }
    }
  }

  /** One operation of chip_driver.py (`op_<name>`), resolved with its result or rejected with a ChipCallError. */
  call<T = unknown>(op: string, args: Record<string, unknown> = {}): Promise<T> {
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject, op });
      this.#child.stdin?.write(`${JSON.stringify({ id, op, ...args })}\n`);
    });
  }

  /** Events seen so far (reports, resubscriptions), oldest first. */
  get events(): readonly ChipEvent[] {
    return this.#events;
  }

  /** The first event (already seen or arriving) that matches, or a rejection after `timeoutMs`. */
  waitFor(match: (event: ChipEvent) => boolean, timeoutMs = 20_000, since = 0): Promise<ChipEvent> {
    const seen = this.#events.slice(since).find(match);
    if (seen) return Promise.resolve(seen);
    if (this.#child.exitCode !== null) return Promise.reject(new Error("the controller has exited"));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        const recent = this.#events.slice(Math.max(since, this.#events.length - 8)).map((event) => JSON.stringify(event));
        reject(new Error(`no matching controller event within ${timeoutMs} ms; the last ones: ${recent.join(" ") || "none"}`));
      }, timeoutMs);
      const waiter: Waiter = {
        match,
        resolve: (event) => {
          clearTimeout(timer);
          resolve(event);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this.#waiters.add(waiter);
    });
  }

  /** A report of `cluster.attribute` on `endpoint` whose value satisfies `accept`, from event index `since` on. */
  waitForReport(
    where: { controller?: string; endpoint: number; cluster: string; attribute: string },
    accept: (value: unknown) => boolean,
    options: { since?: number; timeoutMs?: number } = {},
  ): Promise<ChipReport> {
    return this.waitFor(
      (event) =>
        event.event === "report" &&
        (where.controller === undefined || event.controller === where.controller) &&
        event.endpoint === where.endpoint &&
        event.cluster === where.cluster &&
        event.attribute === where.attribute &&
        accept(event.value),
      options.timeoutMs,
      options.since,
    ) as Promise<ChipReport>;
  }

  read(controller: string, node: number, paths: AttributePathSpec[]): Promise<ReadResult> {
    return this.call<ReadResult>("read", { controller, node, paths });
  }

  invoke(
    controller: string,
    node: number,
    endpoint: number,
    cluster: string,
    command: string,
    args: Record<string, unknown> = {},
    timedRequestTimeoutMs?: number,
  ): Promise<unknown> {
    return this.call("invoke", { controller, node, endpoint, cluster, command, args, timedRequestTimeoutMs });
  }

  /** Ends the controllers and the process (killed if it does not exit within 15 s). */
  async stop(): Promise<void> {
    if (this.#child.exitCode !== null) return;
    this.#child.stdin?.write(`${JSON.stringify({ op: "shutdown" })}\n`);
    const timer = setTimeout(() => this.#child.kill("SIGKILL"), 15_000);
    await this.#exited;
    clearTimeout(timer);
  }
}
