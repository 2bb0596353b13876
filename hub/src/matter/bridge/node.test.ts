import assert from "node:assert/strict";
import { createSocket } from "node:dgram";
import { once } from "node:events";
import { after, before, describe, it } from "node:test";
import { Endpoint, type NodeId } from "@matter/main";
import { OnOff, TemperatureMeasurement } from "@matter/main/clusters";
import { OnOffLightDevice } from "@matter/main/devices/on-off-light";
import type { TemperatureSensorDevice } from "@matter/main/devices/temperature-sensor";
import { memoryLogger } from "../../../../lib/testing/fixtures.ts";
import { assertNetworkIsolated } from "../../../../lib/testing/isolation.ts";
import { TestController } from "../../../test/support/matter-controller.ts";
import {
  type CommandLog,
  freeUdpPort,
  tempDir,
  testLight,
  testTemperatureSensor,
} from "../../../test/support/matter-fixtures.ts";
import { createMatterEnvironment, type MatterEnvironment } from "../matter-environment.ts";
import { BridgeNode, type BridgeNodeOptions, BridgeStartError } from "./node.ts";

const AGGREGATOR = 0x0e;
const ON_OFF_LIGHT = 0x0100;
const TEMPERATURE_SENSOR = 0x0302;
const BRIDGED_NODE = 0x0013;

function bridgeOptions(matter: MatterEnvironment, id: string, port: number): BridgeNodeOptions {
  return {
    id,
    name: `Bridge ${id}`,
    port,
    vendorId: 0xfff1,
    productId: 0x8000,
    vendorName: "Matter Hub",
    productName: "Matter Hub Bridge",
    serialNumber: `hub-${id}`,
    uniqueId: `hub-${id}-uid`,
    softwareVersion: "0.1.0",
    environment: matter,
  };
}

describe("BridgeNode (aggregator)", () => {
  const { log, lines } = memoryLogger("info");
  const commands: CommandLog = [];
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let matter: MatterEnvironment;
  let bridge: BridgeNode;
  let controller: TestController;
  let nodeId: NodeId;
  let port: number;

  before(async () => {
    assertNetworkIsolated();
    dir = await tempDir("bridge-node");
    matter = createMatterEnvironment({ storagePath: `${dir.path}/hub`, log, mdnsInterface: "lo" });
    port = await freeUdpPort();
    bridge = new BridgeNode(bridgeOptions(matter, "bridge-a", port));
    controller = await TestController.start({
      storagePath: `${dir.path}/ctl`,
      localPort: await freeUdpPort(),
      fabricLabel: "Test controller",
    });
  });
  after(async () => {
    await bridge.stop();
    await controller.close();
    await matter.close();
    await dir.remove();
  });

  it("starts with its devices, installs no signal handler, and is commissioned by manual code over ::1", async () => {
    const signalListeners = process.listenerCount("SIGTERM") + process.listenerCount("SIGINT");
    await bridge.addDevice(testLight("light-1", "Kitchen light", commands));
    await bridge.addDevice(testTemperatureSensor("temp-1", "Hall temperature"));
    const seen: string[] = [];
    bridge.on("commissioned", (info) => seen.push(`commissioned:${info.fabrics.length}`));
    await bridge.start();
    assert.equal(bridge.status, "running");
    assert.equal(process.listenerCount("SIGTERM") + process.listenerCount("SIGINT"), signalListeners);

    const before = bridge.commissioning();
    assert.equal(before?.commissioned, false);
    assert.match(before?.manualPairingCode ?? "", /^\d{11}$/);
    assert.match(before?.qrPairingCode ?? "", /^MT:/);
    nodeId = await controller.commission(before?.manualPairingCode ?? "", { ip: "::1", port });

    const info = bridge.commissioning();
    assert.deepEqual(Object.keys(info ?? {}).sort(), [
      "commissioned",
      "discriminator",
      "fabrics",
      "manualPairingCode",
      "passcode",
      "qrPairingCode",
    ]);
    assert.equal(info?.commissioned, true);
    assert.deepEqual(info?.fabrics, [{ fabricIndex: 1, vendorId: 0xfff1, label: "Test controller" }]);
    assert.equal(info?.passcode, before?.passcode);
    assert.deepEqual(seen, ["commissioned:1"]);
  });

  it("exposes an aggregator with the two devices and their device types", async () => {
    assert.deepEqual(await controller.partsList(nodeId), [1, 2, 3]);
    assert.deepEqual(await controller.partsList(nodeId, 1), [2, 3]);
    assert.deepEqual(await controller.deviceTypes(nodeId, 1), [AGGREGATOR]);
    assert.deepEqual((await controller.deviceTypes(nodeId, 2)).sort(), [BRIDGED_NODE, ON_OFF_LIGHT]);
    assert.deepEqual((await controller.deviceTypes(nodeId, 3)).sort(), [BRIDGED_NODE, TEMPERATURE_SENSOR]);
    assert.equal(await controller.read(nodeId, 2, "bridgedDeviceBasicInformation", "nodeLabel"), "Kitchen light");
    assert.deepEqual(
      bridge.devices().map((device) => [device.id, device.number]),
      [
        ["light-1", 2],
        ["temp-1", 3],
      ],
    );
  });

  it("delivers a controller command to the bridge side", async () => {
    await controller.invoke(nodeId, 2, OnOff, "on");
    assert.deepEqual(commands, ["light-1:on"]);
    assert.equal((bridge.device("light-1") as Endpoint<typeof OnOffLightDevice>).state.onOff.onOff, true);
    assert.equal(await controller.read(nodeId, 2, "onOff", "onOff"), true);
  });

  it("reports a bridge-side attribute change to the subscribed controller", async (t) => {
    const started = performance.now();
    const report = controller.waitForAttribute(nodeId, 3, TemperatureMeasurement, "measuredValue", (value) => value === 2345);
    await (bridge.device("temp-1") as Endpoint<typeof TemperatureSensorDevice> | undefined)?.set({
      temperatureMeasurement: { measuredValue: 2345 },
    });
    assert.equal(await report, 2345);
    t.diagnostic(`bridge → controller report: ${Math.round(performance.now() - started)} ms`);
  });

  it("gives a device removed and added again its endpoint number back; forget frees it for good", async () => {
    assert.equal(await bridge.removeDevice("light-1"), true);
    assert.equal(await bridge.removeDevice("light-1"), false);
    assert.deepEqual(await controller.partsList(nodeId, 1), [3]);
    await bridge.addDevice(testLight("light-2", "New light", commands));
    assert.equal(bridge.device("light-2")?.number, 4, "a new device does not take the removed device's number");
    await bridge.addDevice(testLight("light-1", "Kitchen light", commands));
    assert.equal(bridge.device("light-1")?.number, 2);
    assert.deepEqual(await controller.partsList(nodeId, 1), [2, 3, 4]);
    await assert.rejects(bridge.addDevice(testLight("light-1", "Twin", commands)), /already on bridge/);

    await bridge.removeDevice("light-2", { forget: true });
    await bridge.addDevice(testLight("light-2", "New light", commands));
    assert.equal(bridge.device("light-2")?.number, 5, "a forgotten id gets a fresh number");
  });

  it("logs none of the BasicInformation warnings matter.js gives for development or inconsistent values", () => {
    const warnings = lines().filter((line) =>
      /development values|shall not be the same|should not include|shall not be empty/.test(line),
    );
    assert.deepEqual(warnings, []);
  });
});

describe("BridgeNode (server mode, start failures)", () => {
  const { log } = memoryLogger("info");
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let matter: MatterEnvironment;

  before(async () => {
    assertNetworkIsolated();
    dir = await tempDir("bridge-server");
    matter = createMatterEnvironment({ storagePath: `${dir.path}/hub`, log, mdnsInterface: "lo" });
  });
  after(async () => {
    await matter.close();
    await dir.remove();
  });

  it("puts the device directly under the root node and is commissionable over IPv4", async () => {
    const port = await freeUdpPort();
    const bridge = new BridgeNode({ ...bridgeOptions(matter, "server-1", port), serverMode: true });
    const controller = await TestController.start({
      storagePath: `${dir.path}/ctl`,
      localPort: await freeUdpPort(),
      fabricLabel: "Server ctl",
    });
    try {
      await bridge.addDevice(new Endpoint(OnOffLightDevice, { id: "lamp" }));
      await bridge.start();
      const nodeId = await controller.commission(bridge.commissioning()?.manualPairingCode ?? "", { ip: "127.0.0.1", port });
      assert.deepEqual(await controller.partsList(nodeId), [1]);
      assert.deepEqual(await controller.deviceTypes(nodeId, 1), [ON_OFF_LIGHT]);
      await controller.invoke(nodeId, 1, OnOff, "toggle");
      assert.equal(await controller.read(nodeId, 1, OnOff, "onOff"), true);
    } finally {
      await bridge.stop();
      await controller.close();
    }
  });

  it("refuses to start a server-mode bridge without its device", async () => {
    const bridge = new BridgeNode({ ...bridgeOptions(matter, "server-2", await freeUdpPort()), serverMode: true });
    await assert.rejects(
      bridge.start(),
      (error: unknown) => error instanceof BridgeStartError && /device added before start/.test(error.message),
    );
    assert.equal(bridge.status, "stopped");
  });

  it("rejects a start on a port in use with a clear error and leaves nothing running", async () => {
    const blocker = createSocket({ type: "udp6", ipv6Only: false });
    blocker.bind(0);
    await once(blocker, "listening");
    const { port } = blocker.address();
    const bridge = new BridgeNode(bridgeOptions(matter, "busy", port));
    await bridge.addDevice(testLight("light-1", "Light", []));
    try {
      await assert.rejects(bridge.start(), (error: unknown) => {
        assert.ok(error instanceof BridgeStartError);
        assert.equal(error.reason, "port-in-use");
        assert.equal(error.message, `Matter bridge "Bridge busy" cannot listen on UDP port ${port}: the port is already in use`);
        return true;
      });
      assert.equal(bridge.status, "stopped");
      assert.deepEqual(bridge.devices(), [], "the held devices went with the failed node");
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
    // Storage and sockets were released: the same bridge starts once the port is free.
    await bridge.addDevice(testLight("light-1", "Light", []));
    await bridge.start();
    assert.equal(bridge.port, port);
    await bridge.stop();
  });
});
