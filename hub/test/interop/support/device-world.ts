/**
 * The world of the device-type matrix: the simulated HA demo home (plus the on/off domains it lacks and a camera),
 * the simulated appliance cloud, one hub with one bridge holding every row's device (entity mappings for the rows
 * shown as another type, a lock PIN, the three built-in plugins configured), commissioned once by the reference
 * controller, with one subscription to every attribute and event of the bridge.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createDemoHome } from "../../../../simulators/home-assistant/demo-home.ts";
import { type HaSimulator, startHaSimulator } from "../../../../simulators/home-assistant/index.ts";
import { SimulatedCloud } from "../../../src/plugins/builtin/appliance-cloud/simulated-cloud.ts";
import { VeSyncClient } from "../../../src/plugins/builtin/appliance-cloud/vesync-client.ts";
import type { SlotInfo } from "../../../src/plugins/managed-slot.ts";
import { ACCOUNT, EMAIL, PASSWORD } from "../../../src/plugins/testing/appliance-harness.ts";
import { api, type BridgeRecord, devicesOf, waitForStatus } from "../../support/bridge-fixture.ts";
import { freeUdpPort, tempDir } from "../../support/matter-fixtures.ts";
import { createTestHub, eventually, type TestHub } from "../../support/test-context.ts";
import { LOCK_PIN } from "./appliance-cases.ts";
import { ChipController } from "./chip-controller.ts";
import { type DeviceCase, isEntitySource } from "./device-case.ts";
import { ensurePaaTrustStore, interopNetwork, interopPaths } from "./interop-env.ts";
import { ALARM_PANEL, CAMERA } from "./plugin-cases.ts";

export const CONTROLLER = "alpha";
export const NODE = 20;

/** Entities the demo home lacks, so that every domain of the table has a row (siren, remote, input_button). */
const EXTRA_STATES: [string, string, Record<string, unknown>][] = [
  ["siren.hall_siren", "off", { friendly_name: "Hall Siren", supported_features: 3 }],
  ["remote.living_room_tv", "off", { friendly_name: "Living Room TV Remote", supported_features: 0 }],
  ["input_button.ring_test", "unknown", { friendly_name: "Ring test", editable: true }],
];

/** The built-in plugins' settings; the appliance plugin shows the cloud devices the rows name (`cid`, `cid-part`). */
function pluginConfig(rows: readonly DeviceCase[]): Record<string, Record<string, unknown>> {
  const cids = rows.flatMap((row) =>
    !isEntitySource(row.source) && row.source.plugin === "appliance-cloud" ? [row.source.device.split("-")[0]] : [],
  );
  return {
    security: { sourceAlarmPanel: ALARM_PANEL },
    "appliance-cloud": { email: EMAIL, password: PASSWORD, ...Object.fromEntries(cids.map((cid) => [`device_${cid}`, true])) },
    camera: { cameras: CAMERA },
  };
}

export interface DeviceWorld {
  sim: HaSimulator;
  cloud: SimulatedCloud;
  hub: TestHub;
  call: ReturnType<typeof api>;
  chip: ChipController;
  bridge: BridgeRecord;
  /** The endpoint number of a row's device. */
  endpointOf(row: DeviceCase): number;
  /** The name the hub shows for a row's device (HA's name of the entity, or the plugin's device name). */
  nameOf(row: DeviceCase): string;
  /** Saves a plugin's settings again (the appliance plugin then reads every device's status). */
  resave(plugin: string): Promise<void>;
  /** Waits until a plugin's status line reads `status`. */
  pluginStatus(plugin: string, status: string): Promise<void>;
  close(): Promise<void>;
}

export async function startDeviceWorld(rows: readonly DeviceCase[]): Promise<DeviceWorld> {
  const network = interopNetwork();
  ensurePaaTrustStore();
  const storage = await tempDir("chip-devices-");
  const sim = await startHaSimulator({ token: "t", home: createDemoHome(), motionMs: 0 });
  for (const [entityId, state, attributes] of EXTRA_STATES) sim.setState(entityId, state, attributes);
  // The security plugin arms without a code (hub-plugins.md): a panel that wants one would refuse every switch.
  sim.setState(ALARM_PANEL, "disarmed", { code_format: null, code_arm_required: false });
  sim.addCamera(CAMERA, { friendlyName: "Front door" });
  const cloud = new SimulatedCloud({ email: EMAIL, password: PASSWORD, devices: ACCOUNT });
  const hub = await createTestHub({
    ha: { url: sim.url, token: "t" },
    start: true,
    env: { HUB_MDNS_INTERFACE: network.hubInterface },
    plugins: { cloudClient: () => new VeSyncClient({ fetch: cloud.fetch }) },
  });
  let chip: ChipController | undefined;
  const close = async () => {
    await chip?.stop();
    // The hub's log beside the SDK's, for whoever reads a failed run (the hub never logs PINs, tokens or passwords).
    writeFileSync(join(interopPaths().artifacts, "device-types.hub.log"), `${hub.logLines().join("\n")}\n`);
    await hub.stop();
    await sim.close();
    await storage.remove();
  };
  try {
    await hub.homeAssistant.whenLoaded();
    const call = api(hub);
    const entityRows = rows.filter((row) => isEntitySource(row.source));
    const created = await call<BridgeRecord>("POST", "/api/matter/bridges", {
      name: "Device matrix",
      port: await freeUdpPort(),
      filter: { include: entityRows.map((row) => ({ type: "entity_id", value: (row.source as { entityId: string }).entityId })) },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const bridge = await waitForStatus(call, created.body.id, "running");
    for (const row of entityRows) {
      const { entityId, override } = row.source as { entityId: string; override?: string };
      if (!override) continue;
      const mapped = await call("PUT", `/api/entity-mappings/${bridge.id}/${entityId}`, { matterDeviceType: override });
      assert.equal(mapped.status, 200, JSON.stringify(mapped.body));
    }
    const pin = await call("PUT", "/api/lock-credentials/lock.front_door", { pin: LOCK_PIN });
    assert.equal(pin.status, 201, JSON.stringify(pin.body));
    const settings = pluginConfig(rows);
    const resave = async (plugin: string) => {
      const saved = await call<{ applied: boolean; error: string | null }>("POST", `/api/plugins/${bridge.id}/${plugin}/config`, {
        config: settings[plugin],
      });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      assert.deepEqual([saved.body.applied, saved.body.error], [true, null], plugin);
    };
    for (const plugin of Object.keys(settings)) await resave(plugin);

    const devices = await waitForDevices(call, bridge.id, rows);
    chip = await ChipController.start({ names: [CONTROLLER], storage: `${storage.path}/chip.json`, logName: "device-types" });
    await chip.call("commission", { controller: CONTROLLER, node: NODE, code: bridge.commissioning.manualPairingCode });
    // One subscription for every report of the run, as a phone app keeps one per node.
    await chip.subscribe(CONTROLLER, NODE, [[null]], { events: [[null]], minInterval: 0, maxInterval: 30 });
    const world: DeviceWorld = {
      sim,
      cloud,
      hub,
      call,
      chip,
      bridge,
      endpointOf: (row) => {
        const device = devices.get(sourceKey(row));
        assert.ok(device, `${sourceKey(row)} has an endpoint`);
        return device.endpoint;
      },
      nameOf: (row) => devices.get(sourceKey(row))?.name ?? "",
      resave,
      pluginStatus: async (plugin, status) => {
        await eventually(async () => {
          const { body } = await call<{ bridges: { bridgeId: string; plugins: SlotInfo[] }[] }>("GET", "/api/plugins");
          const slot = body.bridges.find((b) => b.bridgeId === bridge.id)?.plugins.find((p) => p.name === plugin);
          return slot?.status === status;
        }, 5000).catch(() => {
          throw new Error(`${plugin} never reported "${status}"`);
        });
      },
      close,
    };
    return world;
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

function sourceKey(row: DeviceCase): string {
  return isEntitySource(row.source) ? row.source.entityId : `${row.source.plugin}/${row.source.device}`;
}

/**
 * Waits until every row's device is on the bridge with the device type the row expects (entity mappings and
 * plugin settings apply in the background) and returns their endpoint numbers and names by source.
 */
async function waitForDevices(call: ReturnType<typeof api>, bridgeId: string, rows: readonly DeviceCase[]) {
  return eventually(
    async () => {
      const found = new Map<string, { endpoint: number; name: string }>();
      const devices = await devicesOf(call, bridgeId);
      const { body } = await call<{ bridges: { bridgeId: string; plugins: SlotInfo[] }[] }>("GET", "/api/plugins");
      const plugins = body.bridges.find((b) => b.bridgeId === bridgeId)?.plugins ?? [];
      for (const row of rows) {
        if (isEntitySource(row.source)) {
          const device = devices.get(row.source.entityId);
          if (device?.endpointNumber == null || device.deviceType !== row.key) return undefined;
          const entity = await call<{ name: string }>("GET", `/api/home-assistant/entities/${row.source.entityId}`);
          found.set(sourceKey(row), { endpoint: device.endpointNumber, name: entity.body.name });
        } else {
          const { plugin, device } = row.source;
          const registered = plugins.find((p) => p.name === plugin)?.devices.find((d) => d.id === device);
          if (registered?.endpointNumber == null) return undefined;
          found.set(sourceKey(row), { endpoint: registered.endpointNumber, name: registered.name });
        }
      }
      return found;
    },
    60_000,
    250,
  );
}
