/**
 * Scenario 1, one run: start ONE subject (the hub or the reference) with `bridges` bridges over a synthetic home of
 * `entities` entities, time process start → every bridge running (online, commissionable), read memory after start
 * (as is and after a forced GC), then commission every bridge from a controller, which subscribes to everything,
 * and read memory again.
 */

import { onCleanup, runDriver } from "../lib/driver.ts";
import type { Runtime } from "../lib/paths.ts";
import type { Subject } from "../lib/subject.ts";
import {
  benchHome,
  bridgeSpecs,
  commission,
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
  runtime: Runtime;
  /** For the reference: the hub's exposed devices per bridge (same run). */
  exposed?: { entityId: string; deviceType: string }[][];
  commission: boolean;
  cpuProfDir?: string;
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
  /** Hub only: what it exposed per bridge, for the reference's plan. */
  exposed?: { entityId: string; deviceType: string }[][];
}

const START_TIMEOUT_MS = 10 * 60_000;

runDriver<StartupJob, StartupResult>(async (job) => {
  const home = benchHome(job.entities, job.bridges);
  const sim = await startSim(home);
  onCleanup(() => sim.close());
  const folder = await tempFolder("startup");
  onCleanup(() => folder.remove());
  const specs = await bridgeSpecs(job.bridges);

  let subject: Subject;
  let readyMs: number[];
  let readyCpu = 0;
  let codes: string[];
  let devices: number[];
  let exposed: StartupResult["exposed"];
  if (job.subject === "hub") {
    await writeHubBridges(folder.path, specs);
    const hub = await spawnHub({
      dataDir: folder.path,
      sim,
      runtime: job.runtime,
      cpuProfDir: job.cpuProfDir,
      verbose: job.verbose,
    });
    subject = hub.subject;
    onCleanup(() => subject.stop());
    readyMs = await hubReady(subject, job.bridges, START_TIMEOUT_MS);
    readyCpu = await cpuOf(subject);
    const memory = await memoryPair(subject);
    const bridges = await hubBridges(hub);
    codes = bridges.map((b) => b.record.commissioning.manualPairingCode);
    devices = bridges.map((b) => b.devices.length);
    exposed = bridges.map((b) => b.devices.map((d) => ({ entityId: d.entityId, deviceType: d.deviceType as string })));
    return finish(memory);
  }
  if (!job.exposed) throw new Error("the reference needs the hub's exposed devices");
  const plan = referencePlanFrom(`${folder.path}/matter`, specs, job.exposed);
  subject = await spawnReference({
    plan,
    planPath: `${folder.path}/plan.json`,
    runtime: job.runtime,
    cpuProfDir: job.cpuProfDir,
    verbose: job.verbose,
  });
  onCleanup(() => subject.stop());
  const ready = await referenceReady(subject, job.bridges, START_TIMEOUT_MS);
  readyMs = ready.map((r) => r.at);
  readyCpu = await cpuOf(subject);
  const memory = await memoryPair(subject);
  codes = ready.map((r) => r.line.manualPairingCode);
  devices = plan.bridges.map((b) => b.devices.length);
  return finish(memory);

  async function finish(memory: { start: ProbeMemory; startGc: ProbeMemory }): Promise<StartupResult> {
    const result: StartupResult = {
      readyMs,
      readyCpuMs: readyCpu,
      allReadyMs: Math.max(...readyMs),
      devices,
      memory,
      ...(exposed ? { exposed } : {}),
    };
    if (!job.commission) return result;
    const { controller, close } = await startBenchController();
    onCleanup(close);
    result.commissionMs = [];
    for (const [index, spec] of specs.entries()) {
      const started = performance.now();
      const nodeId = await commission(controller, codes[index] as string, spec.port);
      await controller.node(nodeId);
      result.commissionMs.push(performance.now() - started);
    }
    // Let the first report rounds and session bookkeeping settle before reading memory.
    await sleep(2000);
    const after = await memoryPair(subject);
    result.memory.subscribed = after.start;
    result.memory.subscribedGc = after.startGc;
    return result;
  }
});

async function cpuOf(subject: Subject): Promise<number> {
  const { userMs, systemMs } = await subject.cpu();
  return userMs + systemMs;
}

async function memoryPair(subject: Subject): Promise<{ start: ProbeMemory; startGc: ProbeMemory }> {
  const start = await subject.memory(false);
  const startGc = await subject.memory(true);
  return { start, startGc };
}
