/**
 * Scenario 2, one run: with a subscribed controller, `samples` times each (one after the other, with a short random
 * pause so samples do not phase-lock to matter.js's timers):
 * - state → report: HA changes a light (hub) / the light's OnOff attribute is written (reference) → the OnOff
 *   report arrives at the controller;
 * - command → call: the controller invokes On/Off → the simulator records the `call_service` (hub) / the
 *   reference's OnOff server receives the command.
 * Lights rotate over up to 10 endpoints. Timestamps are taken in this process (simulator and controller live here).
 */
import { runDriver } from "../lib/driver.ts";
import { lightsOf, nextReport, ON_OFF, openSession, type SessionJob } from "../lib/session.ts";
import { type ExposedDevice, sleep } from "../lib/world.ts";

export interface LatencyJob extends SessionJob {
  samples: number;
}

export interface LatencyResult {
  stateToReportMs: number[];
  commandToCallMs: number[];
  /** Controller-side round trip of each invoke (until the command's response). */
  invokeMs: number[];
  exposed: ExposedDevice[][];
  lights: string[];
}

runDriver<LatencyJob, LatencyResult>(async (job) => {
  const session = await openSession(job);
  const lights = lightsOf(session, 10);
  if (lights.length === 0) throw new Error("no light exposed");
  const on = new Map<string, boolean>();
  // The hub mirrors HA; the reference's lights start off.
  for (const entityId of lights) on.set(entityId, job.subject === "hub" && session.sim.getState(entityId)?.state === "on");
  const pause = () => sleep(20 + Math.random() * 30);
  const onOffOf = (entityId: string) => on.get(entityId) ?? false;

  const result: LatencyResult = {
    stateToReportMs: [],
    commandToCallMs: [],
    invokeMs: [],
    exposed: [session.exposedList],
    lights,
  };
  // Warm-up: one round trip per light in each direction (first-use costs are start-up, not latency).
  for (const [index, entityId] of [...lights, ...lights].entries()) {
    await stateSample(entityId);
    if (index < lights.length) await commandSample(entityId);
  }
  result.stateToReportMs.length = 0;
  result.commandToCallMs.length = 0;
  result.invokeMs.length = 0;

  for (let i = 0; i < job.samples; i++) {
    await stateSample(lights[i % lights.length] as string);
    await pause();
  }
  for (let i = 0; i < job.samples; i++) {
    await commandSample(lights[i % lights.length] as string);
    await pause();
  }
  return result;

  async function stateSample(entityId: string): Promise<void> {
    const target = !onOffOf(entityId);
    const endpoint = session.exposed.get(entityId)?.endpoint;
    const report = nextReport(
      session,
      (r) => r.endpoint === endpoint && r.clusterId === ON_OFF && r.attribute === "onOff" && r.value === target,
      10_000,
    );
    const started = performance.now();
    session.apply([{ entityId, state: target ? "on" : "off", patch: { onOff: { onOff: target } } }]);
    const arrived = await report;
    result.stateToReportMs.push(arrived - started);
    on.set(entityId, target);
  }

  async function commandSample(entityId: string): Promise<void> {
    const target = !onOffOf(entityId);
    const endpoint = session.exposed.get(entityId)?.endpoint as number;
    // The state the command causes, reported back: wait for it too, so the next sample starts from rest.
    const settled = nextReport(
      session,
      (r) => r.endpoint === endpoint && r.clusterId === ON_OFF && r.attribute === "onOff" && r.value === target,
      10_000,
    );
    const arrival = session.commandArrival(entityId, 10_000);
    const started = performance.now();
    await session.controller.invoke(session.nodeId, endpoint, "onOff", target ? "on" : "off");
    const invoked = performance.now();
    result.commandToCallMs.push((await arrival) - started);
    result.invokeMs.push(invoked - started);
    await settled;
    on.set(entityId, target);
  }
});
