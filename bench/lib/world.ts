/**
 * The pieces every Matter scenario driver puts together: the simulated Home Assistant with a synthetic home (in
 * the driver process), the hub or the reference as a fresh measured child process, and a matter.js controller (in
 * the driver process, never measured). Bridges are written straight into the hub's `bridges.json`, so the hub
 * starts them the way it does after a restart, from process start on.
 */
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { NodeId } from "@matter/main";
import { Matter } from "@matter/main/model";
import type { HomeSnapshot } from "../../hub/src/home-assistant/types.ts";
import { TestController } from "../../hub/test/support/matter-controller.ts";
import { freeUdpPort } from "../../hub/test/support/matter-fixtures.ts";
import { createDemoHome, generateHome, type HaSimulator, startHaSimulator } from "../../simulators/home-assistant/index.ts";
import { endpointIdFor, type ReferencePlan, type ReferenceReady } from "../reference-plan.ts";
import type { Runtime } from "./paths.ts";
import { Subject } from "./subject.ts";

const HA_TOKEN = "bench-token";
/** 2026-01-01T00:00:00Z: the demo home's timestamps do not depend on the clock either. */
const DEMO_EPOCH = 1_767_225_600;

/**
 * `generateHome(entities)`, its entities split in `groups` consecutive runs labelled `bench_group_<k>`; with
 * `demo`, the demo home (its size is its own, `entities` is ignored) instead.
 */
export function benchHome(entities: number, groups = 1, demo = false): HomeSnapshot {
  const home = demo ? createDemoHome({ now: DEMO_EPOCH * 1000 }) : generateHome(entities);
  if (groups <= 1) return home;
  const size = Math.ceil(home.entities.length / groups);
  const template = home.labels[0];
  for (let k = 0; k < groups; k++) {
    if (template) home.labels.push({ ...template, label_id: `bench_group_${k}`, name: `Bench group ${k}` });
  }
  home.entities.forEach((entry, index) => {
    entry.labels = [...entry.labels, `bench_group_${Math.floor(index / size)}`];
  });
  return home;
}

export function startSim(home: HomeSnapshot): Promise<HaSimulator> {
  return startHaSimulator({ home, token: HA_TOKEN, motionMs: 0 });
}

/** A TCP port free on 127.0.0.1 right now. */
export async function freeTcpPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === "object" && address ? address.port : 0;
}

export interface BridgeSpec {
  name: string;
  port: number;
  /** Only entities with this label; all entities when absent. */
  label?: string | undefined;
  passcode: number;
  discriminator: number;
  /** The hub's `composeDevices` (default true, as the hub's). */
  composeDevices?: boolean;
  /** Exclude rules of the hub's filter (`{ type, value }`, bridges/filter.ts). */
  exclude?: { type: string; value: string }[];
}

/** Bridge specs with free UDP ports and distinct pairing parameters. */
export async function bridgeSpecs(count: number): Promise<BridgeSpec[]> {
  const specs: BridgeSpec[] = [];
  for (let i = 0; i < count; i++) {
    specs.push({
      name: `Bench ${i + 1}`,
      port: await freeUdpPort(),
      label: count > 1 ? `bench_group_${i}` : undefined,
      passcode: 20202021 + i,
      discriminator: 3840 + i,
    });
  }
  return specs;
}

export async function tempFolder(prefix: string): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), `bench-${prefix}-`));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** The hub's stored bridges (hub/src/bridges/bridge-store.ts format, version 1). */
export async function writeHubBridges(dataDir: string, specs: BridgeSpec[]): Promise<void> {
  const now = new Date().toISOString();
  const bridges = specs.map((spec) => ({
    id: randomBytes(6).toString("hex").slice(0, 11),
    name: spec.name,
    port: spec.port,
    filter: {
      include: spec.label ? [{ type: "label", value: spec.label }] : [],
      exclude: spec.exclude ?? [],
      includeHidden: false,
    },
    priority: 100,
    serverMode: false,
    composeDevices: spec.composeDevices ?? true,
    autoStart: true,
    passcode: spec.passcode,
    discriminator: spec.discriminator,
    createdAt: now,
    updatedAt: now,
  }));
  await mkdir(dataDir, { recursive: true });
  await writeFile(join(dataDir, "bridges.json"), `${JSON.stringify({ version: 1, bridges }, null, 2)}\n`);
}

export interface HubProcess {
  subject: Subject;
  httpPort: number;
  api<T>(path: string): Promise<T>;
}

/** How a measured process is started beyond its entry point: profiling, debugging, node options, environment. */
export interface SpawnExtras {
  cpuProfDir?: string | undefined;
  verbose?: boolean | undefined;
  /** Extra node options, e.g. `--max-old-space-size=256`. */
  nodeArgs?: string[] | undefined;
  /** Extra environment, e.g. BENCH_HEAP_SAMPLING=1 for the probe. */
  env?: Record<string, string> | undefined;
}

export async function spawnHub(
  options: { dataDir: string; sim: HaSimulator; runtime: Runtime } & SpawnExtras,
): Promise<HubProcess> {
  const httpPort = await freeTcpPort();
  const subject = new Subject({
    source: "hub/src/main.ts",
    runtime: options.runtime,
    cpuProfDir: options.cpuProfDir,
    verbose: options.verbose,
    nodeArgs: options.nodeArgs,
    env: {
      ...options.env,
      HUB_DATA_DIR: options.dataDir,
      HUB_PORT: String(httpPort),
      HUB_HOST: "127.0.0.1",
      HA_URL: options.sim.url,
      HA_TOKEN: options.sim.token,
      HUB_LOG_LEVEL: "info",
      // Readiness is a log line read as JSON (subject.ts).
      HUB_LOG_FORMAT: "json",
      HUB_MDNS_INTERFACE: "lo",
      NODE_ENV: "production",
    },
  });
  const api = async <T>(path: string): Promise<T> => {
    const response = await fetch(`http://127.0.0.1:${httpPort}${path}`);
    if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  return { subject, httpPort, api };
}

/** Times (ms since spawn) at which each of `count` bridges logged "running". */
export async function hubReady(subject: Subject, count: number, timeoutMs: number): Promise<number[]> {
  const lines = await subject.waitForLines(
    (line) => typeof line.msg === "string" && /^bridge ".*" running$/.test(line.msg),
    count,
    timeoutMs,
  );
  return lines.map(({ at }) => at - subject.spawnedAt);
}

export interface HubBridgeRecord {
  id: string;
  name: string;
  port: number;
  status: string;
  deviceCount: number;
  commissioning: { manualPairingCode: string };
}

export interface HubDeviceRow {
  entityId: string;
  name?: string;
  deviceType: string | null;
  endpointNumber: number | null;
  skipped: string | null;
  failed: string | null;
  /** Companion entities composed into the endpoint (battery, power, energy…), by role. */
  carries?: { entityId: string; role: string }[];
}

/** One exposed device as the reference copies it: the device type key and the companion roles it carries. */
export interface ExposedDevice {
  entityId: string;
  deviceType: string;
  carries?: string[];
}

/**
 * The hub's device rows as the reference's plan takes them. An Electrical Sensor measures its own entity too (a
 * power or energy sensor): that role comes from the entity's device class in `home`.
 */
export function exposedOf(devices: HubDeviceRow[], home?: HomeSnapshot): ExposedDevice[] {
  return devices.map((d) => {
    const carries = (d.carries ?? []).map((part) => part.role);
    if (d.deviceType === "electrical_sensor") {
      const own = home?.states.find((s) => s.entity_id === d.entityId)?.attributes.device_class;
      if (typeof own === "string") carries.push(own);
    }
    return { entityId: d.entityId, deviceType: d.deviceType as string, ...(carries.length ? { carries } : {}) };
  });
}

/** Bridges in spec order (by name) with their exposed devices. */
export async function hubBridges(hub: HubProcess): Promise<{ record: HubBridgeRecord; devices: HubDeviceRow[] }[]> {
  const records = (await hub.api<HubBridgeRecord[]>("/api/matter/bridges")).sort((a, b) => a.name.localeCompare(b.name));
  const result = [];
  for (const record of records) {
    const { devices } = await hub.api<{ devices: HubDeviceRow[] }>(`/api/matter/bridges/${record.id}/devices`);
    result.push({ record, devices: devices.filter((d) => d.endpointNumber !== null && d.deviceType !== null) });
  }
  return result;
}

/**
 * The reference's plan from the hub's exposed devices: same device type per entity, same count per bridge, and the
 * same composed clusters (Power Source, electrical measurement) where the hub's endpoint carries companions.
 */
export function referencePlanFrom(storagePath: string, specs: BridgeSpec[], exposed: ExposedDevice[][]): ReferencePlan {
  return {
    storagePath,
    bridges: specs.map((spec, index) => ({
      id: `ref${index}`,
      port: spec.port,
      passcode: spec.passcode,
      discriminator: spec.discriminator,
      devices: (exposed[index] ?? []).map((device) => ({
        id: endpointIdFor(device.entityId),
        key: device.deviceType,
        label: device.entityId,
        ...(device.carries ? { carries: device.carries } : {}),
      })),
    })),
  };
}

export async function spawnReference(
  options: { plan: ReferencePlan; planPath: string; runtime: Runtime } & SpawnExtras,
): Promise<Subject> {
  await writeFile(options.planPath, JSON.stringify(options.plan));
  return new Subject({
    source: "bench/reference-bridge.ts",
    runtime: options.runtime,
    cpuProfDir: options.cpuProfDir,
    verbose: options.verbose,
    nodeArgs: options.nodeArgs,
    env: { ...options.env, BENCH_PLAN: options.planPath, MATTER_LOG_LEVEL: "notice", NODE_ENV: "production" },
  });
}

export async function referenceReady(
  subject: Subject,
  count: number,
  timeoutMs: number,
): Promise<{ at: number; line: ReferenceReady }[]> {
  const lines = await subject.waitForLines<ReferenceReady>((line) => line.msg === "reference bridge running", count, timeoutMs);
  return lines.map(({ at, line }) => ({ at: at - subject.spawnedAt, line })).sort((a, b) => a.line.bridge - b.line.bridge);
}

/**
 * The standard Matter model's cluster list, computed once in the driver process. matter.js 0.17's PairedNode builds
 * a debug message for every attribute change it reports (`#handleNodeChange`, logged or not), and for a bridged
 * endpoint that message looks the cluster up in `Matter.clusters`, a getter that walks the whole model on every
 * call: at 3,000 changes/s that was 60 % of the driver's CPU, and the controller then acknowledged each report
 * chunk late, so the drain measured the driver (docs/PERFORMANCE.md, "3,000 changes/s: groups of 8, and a driver
 * that keeps up"). The standard model does not change at run time; the subjects are not touched.
 */
function cacheStandardClusters(): void {
  const clusters = Matter.clusters;
  Object.defineProperty(Matter, "clusters", { value: clusters, configurable: true });
}

/** A controller in the driver process with its own storage and port. */
export async function startBenchController(): Promise<{ controller: TestController; close(): Promise<void> }> {
  cacheStandardClusters();
  const storage = await tempFolder("controller");
  const controller = await TestController.start({
    storagePath: storage.path,
    localPort: await freeUdpPort(),
    fabricLabel: "bench controller",
  });
  return {
    controller,
    async close() {
      await controller.close().catch(() => undefined);
      await storage.remove();
    },
  };
}

/** Commissions one bridge at ::1 (the commissioning resolves once the wildcard subscription is primed). */
export async function commission(controller: TestController, manualCode: string, port: number): Promise<NodeId> {
  return controller.commission(manualCode, { ip: "::1", port });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
