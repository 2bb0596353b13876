import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { memoryLogger } from "../../../../lib/testing/fixtures.ts";
import { assertNetworkIsolated } from "../../../../lib/testing/isolation.ts";
import { TestController } from "../../../test/support/matter-controller.ts";
import { freeUdpPort, tempDir, until } from "../../../test/support/matter-fixtures.ts";
import { PLUGIN_DEVICE_TYPE_KEYS } from "../../plugins/api.ts";
import { BridgeNode } from "../bridge/node.ts";
import { createMatterEnvironment, type MatterEnvironment } from "../matter-environment.ts";
import { checkPluginDevice, PluginDeviceError } from "./plugin-endpoint.ts";
import { mountPluginDevice, resolveEntityMapping } from "./plugin-mount.ts";
import type { PluginDeviceSpec } from "./seam.ts";

/** Device type codes of docs/plugins.md "Device types" (color_temperature_light: Matter's 0x010C, device-types.ts). */
const CODES: Record<string, number> = {
  on_off_light: 0x0100,
  dimmable_light: 0x0101,
  color_temperature_light: 0x010c,
  extended_color_light: 0x010d,
  on_off_plugin_unit: 0x010a,
  dimmable_plug_in_unit: 0x010b,
  temperature_sensor: 0x0302,
  humidity_sensor: 0x0307,
  pressure_sensor: 0x0305,
  flow_sensor: 0x0306,
  light_sensor: 0x0106,
  occupancy_sensor: 0x0107,
  contact_sensor: 0x0015,
  air_quality_sensor: 0x002c,
  thermostat: 0x0301,
  door_lock: 0x000a,
  fan: 0x002b,
  air_purifier: 0x002d,
  window_covering: 0x0202,
  generic_switch: 0x000f,
  water_leak_detector: 0x0043,
};

const spec = (id: string, overrides: Partial<PluginDeviceSpec> = {}): PluginDeviceSpec => ({
  endpointId: `p-test-${id}`,
  name: id,
  clusters: [],
  uniqueId: `uid-${id}`.padEnd(32, "0"),
  vendorName: "Matter Hub plugin",
  productName: "test",
  onWrite: () => undefined,
  ...overrides,
});

describe("plugin device registrations (checks without a node)", () => {
  it("refuses fanControl without fanModeSequence, with a clear message", () => {
    assert.throws(
      () =>
        checkPluginDevice(
          spec("fan", { deviceType: "fan", clusters: [{ clusterId: "fanControl", attributes: { percentSetting: 0 } }] }),
        ),
      (error: Error) =>
        error instanceof PluginDeviceError && /fanControl cluster needs fanModeSequence.*does not mount/.test(error.message),
    );
    // A fan type without any fanControl data has no fanModeSequence either.
    assert.throws(() => checkPluginDevice(spec("fan2", { deviceType: "air_purifier" })), /fanModeSequence/);
  });

  it("refuses unknown device types, wrong-case cluster ids and both or neither of deviceType and endpointType", () => {
    assert.throws(() => checkPluginDevice(spec("x", { deviceType: "toaster" })), /unknown deviceType "toaster"/);
    assert.throws(
      () => checkPluginDevice(spec("x", { deviceType: "on_off_light", clusters: [{ clusterId: "OnOff", attributes: {} }] })),
      /unknown cluster id "OnOff" \(cluster ids are case-sensitive/,
    );
    assert.throws(() => checkPluginDevice(spec("x")), /exactly one of deviceType or endpointType/);
    assert.throws(
      () => checkPluginDevice(spec("x", { deviceType: "on_off_light", endpointType: { kind: "camera", backend: {} as never } })),
      /exactly one/,
    );
  });

  it("resolves domains in the documented order: user override, plugin mapping, built-in table", () => {
    const snapshot = (entityId: string) => ({ entityId, domain: entityId.split(".")[0] ?? "", state: undefined, name: entityId });
    const plugins = (domain: string) => (domain === "person" || domain === "switch" ? ("occupancy_sensor" as const) : undefined);
    assert.deepEqual(resolveEntityMapping(snapshot("person.alex"), null, plugins), { key: "occupancy_sensor" });
    assert.deepEqual(resolveEntityMapping(snapshot("person.alex"), "contact_sensor", plugins), { key: "contact_sensor" });
    // The hub handles switches itself: the plugin mapping does not apply, the override rules of the table do.
    assert.deepEqual(resolveEntityMapping(snapshot("switch.pump"), null, plugins), { key: "on_off_plugin_unit" });
    assert.deepEqual(resolveEntityMapping(snapshot("switch.pump"), "on_off_light", plugins), { key: "on_off_light" });
    assert.ok("unsupported" in resolveEntityMapping(snapshot("weather.home"), null, plugins));
  });
});

describe("plugin devices on a running bridge node", () => {
  const { log } = memoryLogger("info");
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let matter: MatterEnvironment;
  let node: BridgeNode;
  let port: number;

  before(async () => {
    assertNetworkIsolated();
    dir = await tempDir("plugin-endpoint");
    matter = createMatterEnvironment({ storagePath: `${dir.path}/hub`, log, mdnsInterface: "lo" });
    port = await freeUdpPort();
    node = new BridgeNode({
      id: "plugin-node",
      name: "Plugin node",
      port,
      vendorId: 0xfff1,
      productId: 0x8000,
      vendorName: "Matter Hub",
      productName: "Matter Hub Bridge",
      serialNumber: "hub-plugin-node",
      uniqueId: "hub-plugin-node-uid",
      environment: matter,
    });
    await node.start();
  });
  after(async () => {
    await node?.stop();
    await matter?.close();
    await dir?.remove();
  });

  it("mounts every device type of the plugin API with default state and the right device type", async () => {
    for (const key of PLUGIN_DEVICE_TYPE_KEYS) {
      const fan = key === "fan" || key === "air_purifier";
      const clusters = fan ? [{ clusterId: "fanControl", attributes: { fanModeSequence: 2 } }] : [];
      const mounted = await mountPluginDevice(node, spec(key, { deviceType: key, clusters }));
      assert.ok(mounted.endpointNumber, key);
      const endpoint = node.device(`p-test-${key}`);
      assert.ok(endpoint, `${key} endpoint exists`);
      const types = (endpoint.state as unknown as { descriptor: { deviceTypeList: { deviceType: number }[] } }).descriptor
        .deviceTypeList;
      assert.ok(
        types.some((t) => t.deviceType === CODES[key]),
        `${key}: ${types.map((t) => t.deviceType.toString(16))}`,
      );
      assert.ok(
        types.some((t) => t.deviceType === 0x0013),
        `${key} is a bridged node`,
      );
    }
  });

  it("adds extra clusters, applies plugin updates and never reports them as controller writes", async () => {
    const writes: string[] = [];
    const mounted = await mountPluginDevice(
      node,
      spec("purifier", {
        deviceType: "air_purifier",
        clusters: [
          { clusterId: "onOff", attributes: { onOff: true } },
          { clusterId: "fanControl", attributes: { fanModeSequence: 0, speedMax: 3, speedSetting: 1, speedCurrent: 1 } },
        ],
        onWrite: (clusterId, attribute) => writes.push(`${clusterId}.${attribute}`),
      }),
    );
    await mounted.update("fanControl", { percentCurrent: 66, speedCurrent: 2 });
    await mounted.update("bridgedDeviceBasicInformation", { reachable: false });
    const state = node.device("p-test-purifier")?.state as Record<string, Record<string, unknown>>;
    assert.equal(state.onOff?.onOff, true);
    assert.equal(state.fanControl?.speedCurrent, 2);
    assert.equal(state.bridgedDeviceBasicInformation?.reachable, false);
    await assert.rejects(mounted.update("levelControl", { currentLevel: 3 }), /this device has no cluster "levelControl"/);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(writes, []);
    await mounted.unmount();
    assert.equal(node.device("p-test-purifier"), undefined);
  });

  it("reports what a stock server does later for a controller: OnWithTimedOff's off reaches the plugin", async () => {
    const writes: string[] = [];
    const mounted = await mountPluginDevice(
      node,
      spec("kettle", {
        deviceType: "on_off_plugin_unit",
        onWrite: (clusterId, attribute, value) => writes.push(`${clusterId}.${attribute}=${JSON.stringify(value)}`),
      }),
    );
    const controller = await TestController.start({
      storagePath: `${dir.path}/controller`,
      localPort: await freeUdpPort(),
      fabricLabel: "timed off",
    });
    try {
      const nodeId = await controller.commission(node.commissioning()?.manualPairingCode ?? "", { ip: "::1", port });
      await controller.invoke(nodeId, mounted.endpointNumber as number, "onOff", "onWithTimedOff", {
        onOffControl: { acceptOnlyWhenOn: false },
        onTime: 5,
        offWaitTime: 0,
      });
      // On now, off when OnTime (tenths of a second) has run out: the plugin must hear both, or the kettle stays on
      // while every controller shows it off.
      await until("the timed off to reach the plugin", () => writes.includes("onOff.onOff=false"), 5000);
      assert.deepEqual(
        writes.filter((write) => write.startsWith("onOff.onOff=")),
        ["onOff.onOff=true", "onOff.onOff=false"],
      );
      await mounted.update("onOff", { onOff: true });
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(writes.filter((write) => write.startsWith("onOff.onOff=")).length, 2, "its own update is not reported");
    } finally {
      await controller.close();
      await mounted.unmount();
    }
  });
});
