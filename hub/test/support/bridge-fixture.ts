import type { NodeId } from "@matter/main";
import { createDemoHome } from "../../../simulators/home-assistant/demo-home.ts";
import { type HaSimulator, startHaSimulator } from "../../../simulators/home-assistant/index.ts";
import { TestController } from "./matter-controller.ts";
import { freeUdpPort, tempDir } from "./matter-fixtures.ts";
import { createTestHub, eventually, type TestHub } from "./test-context.ts";

export interface BridgeRecord {
  id: string;
  name: string;
  port: number;
  status: string;
  statusReason: string | null;
  deviceCount: number;
  priority: number;
  commissioning: {
    commissioned: boolean;
    manualPairingCode: string;
    qrPairingCode: string;
    passcode: number;
    discriminator: number;
    fabrics: { fabricIndex: number; vendorId: number; label: string }[];
  };
}

export interface DeviceRow {
  entityId: string;
  name: string;
  deviceType: string | null;
  endpointNumber: number | null;
  skipped: string | null;
  failed: string | null;
  reachable: boolean;
  composedInto?: string | null;
  carries?: { entityId: string; role: string; value: unknown; unit: string | null }[];
}

/** Calls the hub's HTTP API in-process and parses JSON, keeping the status. */
export function api(hub: TestHub) {
  return async <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => {
    const response = await hub.app.request(path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
  };
}

/** A simulator with the demo home, a started hub on a temporary data dir, and a controller of its own. */
export async function startBridgeWorld(options: { dataDir?: string; sim?: HaSimulator; env?: Record<string, string> } = {}) {
  const sim = options.sim ?? (await startHaSimulator({ token: "t", home: createDemoHome(), motionMs: 0 }));
  const hub = await createTestHub({ ha: { url: sim.url, token: "t" }, start: true, dataDir: options.dataDir, env: options.env });
  await hub.homeAssistant.whenLoaded();
  return { sim, hub, call: api(hub) };
}

export async function startController(label = "test controller", adminFabricId?: number, mdnsInterface?: string) {
  const storage = await tempDir("controller-");
  const controller = await TestController.start({
    storagePath: storage.path,
    localPort: await freeUdpPort(),
    fabricLabel: label,
    adminFabricId,
    mdnsInterface,
  });
  return {
    controller,
    async close() {
      await controller.close();
      await storage.remove();
    },
  };
}

/** Waits until the bridge reports `status`, returning its record. */
export async function waitForStatus(
  call: ReturnType<typeof api>,
  id: string,
  status: string,
  timeoutMs = 30_000,
): Promise<BridgeRecord> {
  return eventually(
    async () => {
      const { body } = await call<BridgeRecord>("GET", `/api/matter/bridges/${id}`);
      if (body.status === "failed" && status !== "failed") throw new Error(`bridge failed: ${body.statusReason}`);
      return (body.status === status ? body : undefined) as BridgeRecord;
    },
    timeoutMs,
    50,
  );
}

export async function devicesOf(call: ReturnType<typeof api>, id: string): Promise<Map<string, DeviceRow>> {
  const { body } = await call<{ devices: DeviceRow[] }>("GET", `/api/matter/bridges/${id}/devices`);
  return new Map(body.devices.map((device) => [device.entityId, device]));
}

export type { NodeId };
