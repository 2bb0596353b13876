/**
 * Scenario 3, one run: HA state changes at `rate` per second, round-robin over every entity of the home, for
 * `durationS` seconds, with a controller subscribed to everything. Measured in the subject: CPU time, event-loop
 * delay (p99, monitorEventLoopDelay), memory after a forced GC before and after. At the controller: once a second
 * a probe light (outside the load) gets a higher brightness and the time until the controller sees a level at least
 * that high is recorded (lag over time: a later probe's report also answers an earlier one, since the hub writes an
 * endpoint's newest state and may skip one in between), and after the last change the time until the final value
 * of every changed on/off device has been reported (drain).
 * The reference receives the attribute writes of the changes to exposed entities (a plain bridge has no others).
 */

import { changeStream } from "../lib/changes.ts";
import { runDriver } from "../lib/driver.ts";
import { LEVEL_LIGHT_KEYS, lightsOf, nextReport, ON_OFF, openSession, type SessionJob } from "../lib/session.ts";
import { type ExposedDevice, sleep } from "../lib/world.ts";
import type { ProbeLoop, ProbeMemory } from "../sut-probe.ts";

/** The Matter Level Control cluster (the probe needs a level). */
const LEVEL_CONTROL = 0x0008;

export interface LoadJob extends SessionJob {
  rate: number;
  durationS: number;
  /** How long a probe waits for its report before it counts as lagging by that much (default 60 s). */
  probeTimeoutMs?: number;
}

export interface LoadResult {
  rate: number;
  durationS: number;
  /** Changes sent per second (HA changes for the hub, attribute writes for the reference). */
  achievedRate: number;
  changesSent: number;
  entitiesChanged: number;
  cpuPercent: number;
  /** CPU of this driver (simulated HA + load + controller) over the same window: is the harness the limit? */
  driverCpuPercent: number;
  loop: ProbeLoop;
  probeLagMs: { at: number; ms: number }[];
  drainMs: number | null;
  reportsReceived: number;
  memoryBefore: ProbeMemory;
  memoryAfter: ProbeMemory;
  exposed: ExposedDevice[][];
}

const TICK_MS = 10;

runDriver<LoadJob, LoadResult>(async (job) => {
  const probeTimeoutMs = job.probeTimeoutMs ?? 60_000;
  const session = await openSession(job);
  const [probe] = lightsOf(session, 1, LEVEL_LIGHT_KEYS);
  if (!probe) throw new Error("no dimmable light to probe with");
  const probeEndpoint = session.exposed.get(probe)?.endpoint;
  const stream = changeStream(session.sim.getStates(), session.exposed, new Set([probe]));

  // Last value of each on/off endpoint as reported, and as last sent, for the drain measurement.
  const reported = new Map<number, unknown>();
  let reportsReceived = 0;
  session.onReport((report) => {
    reportsReceived++;
    if (report.clusterId === ON_OFF && report.attribute === "onOff") reported.set(report.endpoint, report.value);
  });
  const expected = new Map<number, boolean>();

  // Brightness rises by a step per probe and never wraps within the run (one probe a second, plus the first).
  const step = Math.max(1, Math.min(3, Math.floor(240 / (job.durationS + 2))));
  let probeCount = 0;
  const probeOnce = async (): Promise<number> => {
    probeCount++;
    const brightness = 3 + step * probeCount;
    // HA brightness → Matter level as the hub converts it (hub/src/matter/model/convert/light.ts).
    const level = Math.round((brightness * 254) / 255);
    const arrived = nextReport(
      session,
      (r) =>
        r.endpoint === probeEndpoint &&
        r.clusterId === LEVEL_CONTROL &&
        r.attribute === "currentLevel" &&
        typeof r.value === "number" &&
        r.value >= level,
      probeTimeoutMs,
    );
    const started = performance.now();
    session.apply([
      {
        entityId: probe,
        state: "on",
        attributes: { brightness },
        patch: { onOff: { onOff: true }, levelControl: { currentLevel: level } },
      },
    ]);
    return (await arrived) - started;
  };
  await probeOnce();
  await sleep(1000);

  const memoryBefore = await session.subject.memory(true);
  await session.subject.resetLoopDelay();
  const cpuBefore = await session.subject.cpu();
  const driverBefore = process.cpuUsage();
  const started = performance.now();
  const end = started + job.durationS * 1000;
  let sent = 0;
  let applied = 0;
  const probeLagMs: { at: number; ms: number }[] = [];
  const probes: Promise<void>[] = [];
  let nextProbe = started + 1000;
  while (performance.now() < end) {
    const now = performance.now();
    const due = Math.floor(((now - started) / 1000) * job.rate);
    const batch = [];
    while (sent < due) {
      const change = stream.next();
      sent++;
      batch.push(change);
      const endpoint = session.exposed.get(change.entityId)?.endpoint;
      if (endpoint !== undefined && change.patch && "onOff" in change.patch) {
        expected.set(endpoint, change.state === "on");
      }
      if (job.subject === "hub" || change.patch) applied++;
    }
    if (batch.length > 0) session.apply(batch);
    if (now >= nextProbe) {
      nextProbe += 1000;
      const at = now - started;
      // A probe whose report never came counts as the wait it was given up after (a lag of at least that), rather
      // than losing the run: a subject that far behind is what the lag rows are there to show.
      probes.push(
        probeOnce().then(
          (ms) => void probeLagMs.push({ at, ms }),
          () => void probeLagMs.push({ at, ms: probeTimeoutMs }),
        ),
      );
    }
    await sleep(TICK_MS);
  }
  const stoppedAt = performance.now();
  const cpuAfter = await session.subject.cpu();
  const driverCpu = process.cpuUsage(driverBefore);
  const loop = await session.subject.loopDelay();

  // Drain: every on/off endpoint shows the last value sent.
  let drainMs: number | null = null;
  const drainDeadline = stoppedAt + 60_000;
  while (performance.now() < drainDeadline) {
    let done = true;
    for (const [endpoint, value] of expected) {
      if (reported.get(endpoint) !== value) {
        done = false;
        break;
      }
    }
    if (done) {
      drainMs = performance.now() - stoppedAt;
      break;
    }
    await sleep(5);
  }
  await Promise.allSettled(probes);
  await sleep(1000);
  const memoryAfter = await session.subject.memory(true);
  const wallMs = stoppedAt - started;
  const cpuMs = cpuAfter.userMs + cpuAfter.systemMs - (cpuBefore.userMs + cpuBefore.systemMs);
  return {
    rate: job.rate,
    durationS: job.durationS,
    achievedRate: applied / (wallMs / 1000),
    changesSent: applied,
    entitiesChanged: stream.entityCount,
    cpuPercent: (cpuMs / wallMs) * 100,
    driverCpuPercent: ((driverCpu.user + driverCpu.system) / 1000 / wallMs) * 100,
    loop,
    probeLagMs: probeLagMs.sort((a, b) => a.at - b.at),
    drainMs,
    reportsReceived,
    memoryBefore,
    memoryAfter,
    exposed: [session.exposedList],
  };
});
