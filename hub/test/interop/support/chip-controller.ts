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

/** A Matter event the subscription delivered (Switch presses, smoke alarms, lock operations). */
export interface ChipMatterEvent {
  event: "matter_event";
  controller: string;
  subscription: number;
  node: number;
  endpoint: number;
  cluster: string;
  /** The SDK's event name, e.g. `InitialPress`. */
  name: string;
  number: number;
  value: unknown;
}

type ChipEvent =
  | ChipReport
  | ChipMatterEvent
  | { event: "resubscribed" | "resubscribing" | "ready" | "stopped"; [key: string]: unknown };

/** `{"2": {"OnOff": {"OnOff": true}}}`: endpoint, cluster, attribute, as the SDK names them. */
export type ReadResult = Record<string, Record<string, Record<string, unknown>>>;
/**
 * `{"2": {"6": {"0": true, "65532": 1}}}`: endpoint, cluster id, attribute id, from the undecoded TLV, so it holds
 * what the SDK has no schema for too; an attribute the device would not report is `{status: "<IM status>"}`.
 */
export type RawReadResult = Record<string, Record<string, Record<string, unknown>>>;
/** [endpoint or null, cluster or null, attribute or null]: nulls are wildcards. */
export type AttributePathSpec = [number | null, string?, string?];
/** [endpoint or null, cluster or null, event or null]: nulls are wildcards. */
export type EventPathSpec = [number | null, string?, string?];

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
    // The SDK's native log and Python's logging both arrive on stderr (chip_driver.py moves fd 1 there); stdout
    // lines that are not JSON go to the same file, so it stays open when stderr ends.
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
      this.#log.write(`${line}\n`); // printed on the JSON channel by something other than emit(): kept for the log
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

  /**
   * One operation of chip_driver.py (`op_<name>`), resolved with its result or rejected with a ChipCallError; rejected
   * after `timeoutMs` without an answer (an interaction the device acknowledged but never answered would otherwise
   * wait until the test's own time limit, hiding which step hung).
   */
  call<T = unknown>(op: string, args: Record<string, unknown> = {}, timeoutMs = 120_000): Promise<T> {
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`${op}: no answer within ${timeoutMs} ms (${JSON.stringify(args).slice(0, 200)})`));
      }, timeoutMs);
      const settle =
        <V>(fn: (value: V) => void) =>
        (value: V) => {
          clearTimeout(timer);
          fn(value);
        };
      this.#pending.set(id, { resolve: settle(resolve as (value: unknown) => void), reject: settle(reject), op });
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

  /** A Matter event on `endpoint` whose value satisfies `accept`, from event index `since` on. */
  waitForMatterEvent(
    where: { controller?: string; endpoint: number; cluster: string; name: string },
    accept: (value: unknown) => boolean = () => true,
    options: { since?: number; timeoutMs?: number } = {},
  ): Promise<ChipMatterEvent> {
    return this.waitFor(
      (event) =>
        event.event === "matter_event" &&
        (where.controller === undefined || event.controller === where.controller) &&
        event.endpoint === where.endpoint &&
        event.cluster === where.cluster &&
        event.name === where.name &&
        accept(event.value),
      options.timeoutMs,
      options.since,
    ) as Promise<ChipMatterEvent>;
  }

  read(controller: string, node: number, paths: AttributePathSpec[]): Promise<ReadResult> {
    return this.call<ReadResult>("read", { controller, node, paths });
  }

  /** A read keyed by ids, from the undecoded TLV ({@link RawReadResult}). */
  readRaw(controller: string, node: number, paths: AttributePathSpec[]): Promise<RawReadResult> {
    return this.call<RawReadResult>("read", { controller, node, paths, raw: true });
  }

  /** One attribute write; resolves with the status the device answered (`Success`, `ConstraintError`, ...). */
  async write(controller: string, node: number, endpoint: number, cluster: string, attribute: string, value: unknown) {
    const results = await this.call<{ status: string }[]>("write", { controller, node, endpoint, cluster, attribute, value });
    return results[0]?.status ?? "no status";
  }

  /**
   * Subscribes to `paths` (and `events`, reported at once); reports and events then arrive as events. Resolves with
   * the subscription number and the primed values.
   */
  subscribe(
    controller: string,
    node: number,
    paths: AttributePathSpec[],
    options: { events?: EventPathSpec[]; minInterval?: number; maxInterval?: number } = {},
  ): Promise<{ subscription: number; values: ReadResult }> {
    return this.call("subscribe", { controller, node, paths, ...options });
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
