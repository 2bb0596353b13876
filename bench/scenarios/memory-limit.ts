/**
 * Scenario 5, one probe of the memory-limited bisection (suites/memory-limit.ts): the subject (hub or reference)
 * runs with `--max-old-space-size=<heapMb>`, starts a bridge over `entities` entities, is commissioned and
 * subscribed by a controller, then gets `rate` HA state changes per second (round-robin, as in the load scenario)
 * for `durationS` seconds. It holds when it is still alive after that and still reports: a light toggled then
 * reaches the controller. Whatever happens first, dying (V8's "heap out of memory" or another exit), a stage
 * that takes too long, or a lost report, ends the probe as failed, with the stage and the reason.
 */
import { changeStream } from "../lib/changes.ts";
import { runDriver } from "../lib/driver.ts";
import { lightsOf, nextReport, ON_OFF, openSession, type Session, type SessionJob } from "../lib/session.ts";
import type { Subject } from "../lib/subject.ts";
import { type ExposedDevice, sleep } from "../lib/world.ts";
import type { ProbeMemory } from "../sut-probe.ts";

export interface MemoryLimitJob extends SessionJob {
  heapMb: number;
  rate: number;
  durationS: number;
  /** How long starting, and separately commissioning + subscribing, may take before the probe counts as failed. */
  stageTimeoutMs: number;
}

export type MemoryLimitStage = "start" | "commission" | "load" | "after load";

export interface MemoryLimitResult {
  heapMb: number;
  held: boolean;
  /** Where a failed probe failed. */
  stage?: MemoryLimitStage;
  reason?: string;
  /** The process ran out of heap (V8's message on stderr). */
  outOfMemory: boolean;
  /** Hub only: it logged its low-memory warning (system/heap-watch.ts) during the probe. */
  warned: boolean;
  changesSent: number;
  memoryAfter?: ProbeMemory;
  exposed?: ExposedDevice[][];
}

const TICK_MS = 10;

class Failed extends Error {}

runDriver<MemoryLimitJob, MemoryLimitResult>(async (job) => {
  let stage: MemoryLimitStage = "start";
  let subject: Subject | undefined;
  let warned = false;
  let changesSent = 0;
  let exposed: ExposedDevice[][] | undefined;
  // Rejects as soon as the process exits: every stage races it.
  let died: (reason: Error) => void = () => {};
  const death = new Promise<never>((_, reject) => {
    died = reject;
  });
  death.catch(() => undefined);
  const within = <T>(work: Promise<T>, ms: number, what: string): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Failed(`${what} took longer than ${Math.round(ms / 1000)} s`)), ms);
    });
    return Promise.race([work, death, late]).finally(() => clearTimeout(timer));
  };
  const outOfMemory = () => /heap out of memory|Allocation failed/i.test(subject?.stderrTail(200) ?? "");
  const failed = (error: unknown): MemoryLimitResult => ({
    heapMb: job.heapMb,
    held: false,
    stage,
    reason: error instanceof Error ? error.message.split("\n")[0] : String(error),
    outOfMemory: outOfMemory(),
    warned,
    changesSent,
    ...(exposed ? { exposed } : {}),
  });

  let session: Session;
  try {
    const opening = openSession(
      { ...job, nodeArgs: [...(job.nodeArgs ?? []), `--max-old-space-size=${job.heapMb}`], startTimeoutMs: job.stageTimeoutMs },
      {
        spawned(spawned) {
          subject = spawned;
          spawned.exited.then((code) => {
            const how = code === null ? `was killed (${spawned.child.signalCode})` : `exited with ${code}`;
            died(new Failed(`the process ${how}`));
          });
          spawned.onLine((line) => {
            if (line.includes("Memory is running low")) warned = true;
          });
        },
        running() {
          stage = "commission";
        },
      },
    );
    // Starting has its own time-out inside openSession; commissioning gets one more stage time-out on top.
    session = await within(opening, 2 * job.stageTimeoutMs, "starting, commissioning and subscribing");
  } catch (error) {
    return failed(error);
  }
  exposed = [session.exposedList];
  try {
    stage = "load";
    const [probe] = lightsOf(session, 1);
    if (!probe) throw new Error("no light to probe with");
    const stream = changeStream(session.sim.getStates(), session.exposed, new Set([probe]));
    const started = performance.now();
    const end = started + job.durationS * 1000;
    let due = 0;
    while (performance.now() < end) {
      const target = Math.floor(((performance.now() - started) / 1000) * job.rate);
      const batch = [];
      while (due < target) {
        batch.push(stream.next());
        due++;
      }
      if (batch.length > 0) session.apply(batch);
      changesSent = due;
      await within(sleep(TICK_MS), job.stageTimeoutMs, "a tick of the load");
    }
    stage = "after load";
    // Still working: a light outside the load reaches the controller.
    const endpoint = session.exposed.get(probe)?.endpoint;
    const on = !(job.subject === "hub" && session.sim.getState(probe)?.state === "on");
    const arrived = nextReport(
      session,
      (r) => r.endpoint === endpoint && r.clusterId === ON_OFF && r.attribute === "onOff" && r.value === on,
      job.stageTimeoutMs,
    );
    session.apply([{ entityId: probe, state: on ? "on" : "off", patch: { onOff: { onOff: on } } }]);
    await within(arrived, job.stageTimeoutMs, "the report after the load");
    const memoryAfter = await within(session.subject.memory(false), job.stageTimeoutMs, "the memory probe");
    return { heapMb: job.heapMb, held: true, outOfMemory: false, warned, changesSent, memoryAfter, exposed };
  } catch (error) {
    return failed(error);
  }
});
