/**
 * Scenario 1, one run: start ONE subject (the hub or the reference) with `bridges` bridges over a synthetic home of
 * `entities` entities from an empty data folder (first start), time process start → every bridge running (online,
 * commissionable), read CPU time and memory after start (as is and after a forced GC), then commission every
 * bridge from a controller, which subscribes to everything, and read memory again. With `restart`, the process is
 * then stopped and started again on the same data (the usual case: an add-on restart) and timed once more.
 */

import { mkdir } from "node:fs/promises";
import { onCleanup, runDriver } from "../lib/driver.ts";
import type { Runtime } from "../lib/paths.ts";
import type { Subject } from "../lib/subject.ts";
import {
  type BridgeSpec,
  benchHome,
  bridgeSpecs,
  commission,
  type ExposedDevice,
  exposedOf,
  hubBridges,
  hubReady,
  referencePlanFrom,
  referenceReady,
  sleep,
  spawnHub,
  spawnReference,
  startBenchController,
  startSim,
  tempFolder,
  writeHubBridges,
} from "../lib/world.ts";
import type { ProbeMemory } from "../sut-probe.ts";

export interface StartupJob {
  subject: "hub" | "reference";
  entities: number;
  bridges: number;
  /** `demo`: the demo home (its own size) instead of `generateHome(entities)`. */
  home?: "generated" | "demo";
  /** The hub's `composeDevices` (default true). */
  composeDevices?: boolean;
  /** Exclude rules of the hub's filter, e.g. the electrical sensors for the endpoints of before issue 19. */
  exclude?: { type: string; value: string }[];
  runtime: Runtime;
  /** For the reference: the hub's exposed devices per bridge (same run). */
  exposed?: ExposedDevice[][];
  commission: boolean;
  /** Also time a restart on the same data folder. */
  restart?: boolean;
  cpuProfDir?: string;
  /**
   * Write a sampling heap profile of every allocation from process start until running (`<subject>.heapprofile`)
   * and a heap snapshot once running (`<subject>.heapsnapshot`, after a forced GC) into this folder.
   */
  heapDir?: string;
  /** Extra node options for the measured process (e.g. `--max-old-space-size=256`, `--trace-gc`). */
  nodeArgs?: string[];
  verbose?: boolean;
}

export interface StartupResult {
  /** ms from spawn until each bridge was running. */
  readyMs: number[];
  /**
   * CPU time (user + system, ms) the process had used when every bridge was running: the work of starting, much
   * less sensitive than wall time to other load on the machine.
   */
  readyCpuMs: number;
  allReadyMs: number;
  devices: number[];
  memory: { start: ProbeMemory; startGc: ProbeMemory; subscribed?: ProbeMemory; subscribedGc?: ProbeMemory };
  /** ms to commission each bridge including the initial wildcard subscription report. */
  commissionMs?: number[];
  /** The second start, on the data the first one left (commissioned when `commission` was set). */
  restart?: { allReadyMs: number; readyCpuMs: number; startGc: ProbeMemory };
  /** Hub only: what it exposed per bridge, for the reference's plan. */
  exposed?: ExposedDevice[][];
}

const START_TIMEOUT_MS = 10 * 60_000;

interface Launched {
  subject: Subject;
  readyMs: number[];
  readyCpuMs: number;
  codes: string[];
  devices: number[];
  exposed?: StartupResult["exposed"];
}

runDriver<StartupJob, StartupResult>(async (job) => {
  const home = benchHome(job.entities, job.bridges, job.home === "demo");
  const sim = await startSim(home);
  onCleanup(() => sim.close());
  const folder = await tempFolder("startup");
  onCleanup(() => folder.remove());
  const specs = (await bridgeSpecs(job.bridges)).map((spec) => ({
    ...spec,
    ...(job.composeDevices === undefined ? {} : { composeDevices: job.composeDevices }),
    ...(job.exclude ? { exclude: job.exclude } : {}),
  }));
  if (job.subject === "hub") await writeHubBridges(folder.path, specs);
  else if (!job.exposed) throw new Error("the reference needs the hub's exposed devices");

  const heapEnv = job.heapDir ? { BENCH_HEAP_SAMPLING: "1" } : undefined;
  /** Starts the subject on the folder and waits until every bridge runs. */
  const launch = async (profileDir: string | undefined): Promise<Launched> => {
    if (job.subject === "hub") {
      const hub = await spawnHub({
        dataDir: folder.path,
        sim,
        runtime: job.runtime,
        cpuProfDir: profileDir,
        verbose: job.verbose,
        env: heapEnv,
        nodeArgs: job.nodeArgs,
      });
      onCleanup(() => hub.subject.stop());
      const readyMs = await hubReady(hub.subject, job.bridges, START_TIMEOUT_MS);
      const readyCpuMs = await cpuOf(hub.subject);
      const bridges = await hubBridges(hub);
      return {
        subject: hub.subject,
        readyMs,
        readyCpuMs,
        codes: bridges.map((b) => b.record.commissioning.manualPairingCode),
        devices: bridges.map((b) => b.devices.length),
        exposed: bridges.map((b) => exposedOf(b.devices, home)),
      };
    }
    const plan = referencePlanFrom(`${folder.path}/matter`, specs, job.exposed ?? []);
    const subject = await spawnReference({
      plan,
      planPath: `${folder.path}/plan.json`,
      runtime: job.runtime,
      cpuProfDir: profileDir,
      verbose: job.verbose,
      env: heapEnv,
      nodeArgs: job.nodeArgs,
    });
    onCleanup(() => subject.stop());
    const ready = await referenceReady(subject, job.bridges, START_TIMEOUT_MS);
    return {
      subject,
      readyMs: ready.map((r) => r.at),
      readyCpuMs: await cpuOf(subject),
      codes: ready.map((r) => r.line.manualPairingCode),
      devices: plan.bridges.map((b) => b.devices.length),
    };
  };

  const first = await launch(job.cpuProfDir);
  const start = await first.subject.memory(false);
  if (job.heapDir) {
    await mkdir(job.heapDir, { recursive: true });
    await first.subject.heapProfile(`${job.heapDir}/${job.subject}.heapprofile`);
  }
  const startGc = await first.subject.memory(true);
  if (job.heapDir) await first.subject.heapSnapshot(`${job.heapDir}/${job.subject}.heapsnapshot`);
  const result: StartupResult = {
    readyMs: first.readyMs,
    readyCpuMs: first.readyCpuMs,
    allReadyMs: Math.max(...first.readyMs),
    devices: first.devices,
    memory: { start, startGc },
    ...(first.exposed ? { exposed: first.exposed } : {}),
  };
  if (job.commission) {
    const { controller, close } = await startBenchController();
    onCleanup(close);
    result.commissionMs = await commissionAll(controller, first.codes, specs);
    // Let the first report rounds and session bookkeeping settle before reading memory.
    await sleep(2000);
    result.memory.subscribed = await first.subject.memory(false);
    result.memory.subscribedGc = await first.subject.memory(true);
  }
  if (job.restart) {
    await first.subject.stop();
    const second = await launch(job.cpuProfDir ? `${job.cpuProfDir}-restart` : undefined);
    result.restart = {
      allReadyMs: Math.max(...second.readyMs),
      readyCpuMs: second.readyCpuMs,
      startGc: await second.subject.memory(true),
    };
    await second.subject.stop();
  }
  return result;
});

async function commissionAll(
  controller: Awaited<ReturnType<typeof startBenchController>>["controller"],
  codes: string[],
  specs: BridgeSpec[],
): Promise<number[]> {
  const times: number[] = [];
  for (const [index, spec] of specs.entries()) {
    const started = performance.now();
    const nodeId = await commission(controller, codes[index] as string, spec.port);
    await controller.node(nodeId);
    times.push(performance.now() - started);
  }
  return times;
}

async function cpuOf(subject: Subject): Promise<number> {
  const { userMs, systemMs } = await subject.cpu();
  return userMs + systemMs;
}
