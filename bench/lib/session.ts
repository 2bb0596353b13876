/**
 * A running subject with one bridge, commissioned and subscribed by a controller: what the latency and load
 * scenarios measure against. It hides the one difference between hub and reference: how a state change enters
 * (the simulated HA for the hub, IPC attribute writes for the reference) and where a command ends up (a recorded
 * `call_service` at the simulator, an IPC note from the reference's OnOff server).
 */
import type { NodeId } from "@matter/main";
import type { AttributeReport, TestController } from "../../hub/test/support/matter-controller.ts";
import type { HaSimulator } from "../../simulators/home-assistant/index.ts";
import { endpointIdFor, type ReferenceCommand, type ReferenceSet } from "../reference-plan.ts";
import { onCleanup } from "./driver.ts";
import type { Runtime } from "./paths.ts";
import type { Subject } from "./subject.ts";
import {
  benchHome,
  bridgeSpecs,
  commission,
  type ExposedDevice,
  exposedOf,
  hubBridges,
  hubReady,
  referencePlanFrom,
  referenceReady,
  spawnHub,
  spawnReference,
  startBenchController,
  startSim,
  tempFolder,
  writeHubBridges,
} from "./world.ts";

export interface SessionJob {
  subject: "hub" | "reference";
  entities: number;
  runtime: Runtime;
  exposed?: ExposedDevice[][];
  cpuProfDir?: string;
  verbose?: boolean;
  /** Extra node options for the measured process (the memory-limited scenario's `--max-old-space-size`). */
  nodeArgs?: string[];
  /** How long the subject may take until its bridge runs (10 minutes by default). */
  startTimeoutMs?: number;
}

/** Calls made while a session opens, for drivers that watch the process from its spawn on. */
export interface SessionHooks {
  spawned?(subject: Subject): void;
  /** The bridge runs; commissioning and the subscription come next. */
  running?(): void;
}

export type Patch = Record<string, Record<string, unknown>>;

/** One state change, as HA writes it (hub) and as the attribute writes it causes (reference). */
export interface Change {
  entityId: string;
  state: string;
  attributes?: Record<string, unknown>;
  /** Undefined when the entity is not exposed (the reference gets nothing: a plain bridge has no such device). */
  patch?: Patch | undefined;
}

export interface Session {
  subject: Subject;
  sim: HaSimulator;
  controller: TestController;
  nodeId: NodeId;
  /** Exposed entity id → device type key and endpoint number. */
  exposed: Map<string, { key: string; endpoint: number }>;
  exposedList: ExposedDevice[];
  /** Applies changes: HA states for the hub, one IPC batch of attribute writes for the reference. */
  apply(changes: Change[]): void;
  /** Resolves (performance.now()) when the command on `entityId` reached HA (hub) or the device (reference). */
  commandArrival(entityId: string, timeoutMs: number): Promise<number>;
  /** Every attribute report of the subscription, with its arrival time. */
  onReport(listener: (report: AttributeReport, at: number) => void): () => void;
}

export async function openSession(job: SessionJob, hooks: SessionHooks = {}): Promise<Session> {
  const startTimeoutMs = job.startTimeoutMs ?? 10 * 60_000;
  const home = benchHome(job.entities);
  const sim = await startSim(home);
  onCleanup(() => sim.close());
  const folder = await tempFolder("session");
  onCleanup(() => folder.remove());
  const [spec] = await bridgeSpecs(1);
  if (!spec) throw new Error("no bridge spec");

  let subject: Subject;
  let code: string;
  let endpoints: Map<string, number>;
  let exposedList: ExposedDevice[];
  const commandWaiters = new Map<string, (at: number) => void>();
  if (job.subject === "hub") {
    await writeHubBridges(folder.path, [spec]);
    const hub = await spawnHub({
      dataDir: folder.path,
      sim,
      runtime: job.runtime,
      cpuProfDir: job.cpuProfDir,
      verbose: job.verbose,
      nodeArgs: job.nodeArgs,
    });
    subject = hub.subject;
    onCleanup(() => subject.stop());
    hooks.spawned?.(subject);
    await hubReady(subject, 1, startTimeoutMs);
    const [bridge] = await hubBridges(hub);
    if (!bridge) throw new Error("the hub has no bridge");
    code = bridge.record.commissioning.manualPairingCode;
    exposedList = exposedOf(bridge.devices, home);
    endpoints = new Map(bridge.devices.map((d) => [d.entityId, d.endpointNumber as number]));
  } else {
    const exposed = job.exposed?.[0];
    if (!exposed) throw new Error("the reference needs the hub's exposed devices");
    exposedList = exposed;
    const plan = referencePlanFrom(`${folder.path}/matter`, [spec], [exposed]);
    subject = await spawnReference({
      plan,
      planPath: `${folder.path}/plan.json`,
      runtime: job.runtime,
      cpuProfDir: job.cpuProfDir,
      verbose: job.verbose,
      nodeArgs: job.nodeArgs,
    });
    onCleanup(() => subject.stop());
    hooks.spawned?.(subject);
    const [ready] = await referenceReady(subject, 1, startTimeoutMs);
    if (!ready) throw new Error("the reference did not start");
    code = ready.line.manualPairingCode;
    endpoints = new Map(exposed.map((d) => [d.entityId, ready.line.endpoints[endpointIdFor(d.entityId)] as number]));
    subject.child.on("message", (message: ReferenceCommand) => {
      if (message?.ref !== "command") return;
      const at = performance.now();
      const entityId = exposed.find((d) => endpointIdFor(d.entityId) === message.endpoint)?.entityId;
      const waiter = entityId ? commandWaiters.get(entityId) : undefined;
      if (entityId && waiter) {
        commandWaiters.delete(entityId);
        waiter(at);
      }
    });
  }

  hooks.running?.();
  const { controller, close } = await startBenchController();
  onCleanup(close);
  const nodeId = await commission(controller, code, spec.port);
  await controller.node(nodeId);
  const listeners = new Set<(report: AttributeReport, at: number) => void>();
  const stop = await controller.onAttribute(nodeId, (report) => {
    const at = performance.now();
    for (const listener of listeners) listener(report, at);
  });
  onCleanup(stop);

  const exposedMap = new Map(
    exposedList.map((d) => [d.entityId, { key: d.deviceType, endpoint: endpoints.get(d.entityId) ?? -1 }]),
  );
  const isHub = job.subject === "hub";
  return {
    subject,
    sim,
    controller,
    nodeId,
    exposed: exposedMap,
    exposedList,
    apply(changes) {
      if (isHub) {
        for (const change of changes) sim.setState(change.entityId, change.state, change.attributes);
        return;
      }
      const batch: ReferenceSet = { ref: "set", changes: [] };
      for (const change of changes) if (change.patch) batch.changes.push([0, endpointIdFor(change.entityId), change.patch]);
      if (batch.changes.length > 0) subject.send(batch);
    },
    commandArrival(entityId, timeoutMs) {
      if (isHub) {
        sim.clearCalls();
        return sim.waitForCall((call) => call.entityIds.includes(entityId), timeoutMs).then(() => performance.now());
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          commandWaiters.delete(entityId);
          reject(new Error(`no command at ${entityId} within ${timeoutMs} ms`));
        }, timeoutMs);
        commandWaiters.set(entityId, (at) => {
          clearTimeout(timer);
          resolve(at);
        });
      });
    },
    onReport(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Resolves with the arrival time of the first report matching `match`; rejects after `timeoutMs`. */
export function nextReport(session: Session, match: (report: AttributeReport) => boolean, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no matching report within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = session.onReport((report, at) => {
      if (!match(report)) return;
      clearTimeout(timer);
      off();
      resolve(at);
    });
  });
}

/** The light device types that have Level Control. */
export const LEVEL_LIGHT_KEYS: ReadonlySet<string> = new Set([
  "dimmable_light",
  "color_temperature_light",
  "extended_color_light",
]);
const LIGHT_KEYS: ReadonlySet<string> = new Set(["on_off_light", ...LEVEL_LIGHT_KEYS]);

/** Exposed HA lights (domain `light`) of these device types (default: any), at most `count`, sorted for stable runs. */
export function lightsOf(session: Session, count: number, keys: ReadonlySet<string> = LIGHT_KEYS): string[] {
  return [...session.exposed.entries()]
    .filter(([entityId, d]) => entityId.startsWith("light.") && keys.has(d.key))
    .map(([entityId]) => entityId)
    .sort()
    .slice(0, count);
}

/** OnOff cluster id. */
export const ON_OFF = 0x0006;
