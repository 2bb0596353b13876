import assert from "node:assert/strict";
import { after, before, describe, it, type TestContext } from "node:test";
import type { Endpoint, NodeId } from "@matter/main";
import { OnOff, TemperatureMeasurement } from "@matter/main/clusters";
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
  until,
} from "../../../test/support/matter-fixtures.ts";
import { createMatterEnvironment, type MatterEnvironment } from "../matter-environment.ts";
import { BridgeNode, type BridgeNodeOptions } from "./node.ts";

/**
 * A hub restart as the controller sees it: the bridge goes away gracefully and comes back from the same storage.
 * The controller keeps running and must neither pair again nor see endpoint numbers change; its subscription
 * should deliver reports again within seconds (see docs/matter-notes.md for why that is not a given).
 */
describe("BridgeNode restart", () => {
  const { log, lines } = memoryLogger("debug");
  const commands: CommandLog = [];
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let matter: MatterEnvironment;
  let options: BridgeNodeOptions;
  let bridge: BridgeNode;
  let controller: TestController;
  let nodeId: NodeId;

  const withDevices = async (node: BridgeNode) => {
    await node.addDevice(testLight("light-1", "Kitchen", commands));
    await node.addDevice(testTemperatureSensor("temp-1", "Hall"));
    return node;
  };

  /** Changes the temperature now and every 200 ms until the controller reports a change; ms since `since`. */
  const firstReportAfter = async (node: BridgeNode, since: number, timeoutMs = 20_000) => {
    let value = 2000 + Math.floor(Math.random() * 500);
    const report = controller.waitForAttribute(nodeId, 3, TemperatureMeasurement, "measuredValue", () => true, timeoutMs);
    const change = () =>
      void (node.device("temp-1") as Endpoint<typeof TemperatureSensorDevice> | undefined)?.set({
        temperatureMeasurement: { measuredValue: ++value },
      });
    change();
    const ticker = setInterval(change, 200);
    try {
      await report;
      return Math.round(performance.now() - since);
    } finally {
      clearInterval(ticker);
    }
  };

  const assertServedWithoutPairing = async (t: TestContext, node: BridgeNode, label: string) => {
    assert.deepEqual(
      node.devices().map((device) => [device.id, device.number]),
      [
        ["light-1", 2],
        ["temp-1", 3],
      ],
    );
    assert.equal(node.commissioning()?.commissioned, true);
    const started = performance.now();
    commands.length = 0;
    await controller.invoke(nodeId, 2, OnOff, "off");
    assert.deepEqual(commands, ["light-1:off"]);
    t.diagnostic(`${label}: first command round trip ${Math.round(performance.now() - started)} ms`);
    assert.deepEqual(await controller.partsList(nodeId, 1), [2, 3]);
  };

  before(async () => {
    assertNetworkIsolated();
    dir = await tempDir("bridge-restart");
    matter = createMatterEnvironment({ storagePath: `${dir.path}/hub`, log, mdnsInterface: "lo" });
    options = {
      id: "bridge-r",
      name: "Restart Bridge",
      port: await freeUdpPort(),
      vendorId: 0xfff1,
      productId: 0x8000,
      vendorName: "Matter Hub",
      productName: "Hub Bridge",
      serialNumber: "restart-1",
      uniqueId: "restart-1-uid",
      environment: matter,
    };
    bridge = await withDevices(new BridgeNode(options));
    await bridge.start();
    controller = await TestController.start({
      storagePath: `${dir.path}/ctl`,
      localPort: await freeUdpPort(),
      fabricLabel: "Restart ctl",
    });
    nodeId = await controller.commission(bridge.commissioning()?.manualPairingCode ?? "", { ip: "::1", port: options.port });
  });
  let controllerClosed = false;
  after(async () => {
    await bridge.stop();
    if (!controllerClosed) await controller.close();
    await matter.close();
    await dir.remove();
  });

  it("stop + start of the same BridgeNode: served at once, numbers unchanged, reports resume within seconds", async (t) => {
    const events: string[] = [];
    bridge.on("offline", () => events.push("offline"));
    bridge.on("online", () => events.push("online"));
    await bridge.stop();
    assert.equal(bridge.status, "stopped");
    assert.equal(bridge.commissioning()?.commissioned, true, "the last known state is kept while stopped");
    await withDevices(bridge);
    await bridge.start();
    assert.deepEqual(events, ["offline", "online"]);
    const started = performance.now();
    const reportMs = await firstReportAfter(bridge, started);
    t.diagnostic(`same instance, no reconnect: first report ${reportMs} ms after start`);
    assert.ok(reportMs < 5_000, `reports resumed after ${reportMs} ms`);
    // The resumption runs right after start() resolved (subscription-resumption.ts); matter.js logs its outcome.
    await until("matter.js re-established the controller's subscription itself", () =>
      lines().some((line) => line.includes("Reestablished 1") && line.includes("former subscriptions")),
    );
    await assertServedWithoutPairing(t, bridge, "same instance");
  });

  it("a new BridgeNode in a new environment (process restart) resumes too; reconnect() is not needed but works", async (t) => {
    await bridge.stop();
    await matter.close();
    matter = createMatterEnvironment({ storagePath: `${dir.path}/hub`, log, mdnsInterface: "lo" });
    bridge = await withDevices(new BridgeNode({ ...options, environment: matter }));
    await bridge.start();
    let started = performance.now();
    const reportMs = await firstReportAfter(bridge, started);
    t.diagnostic(`new process, no reconnect: first report ${reportMs} ms after start`);
    assert.ok(reportMs < 5_000, `reports resumed after ${reportMs} ms`);
    await assertServedWithoutPairing(t, bridge, "new process");

    started = performance.now();
    await controller.reconnect(nodeId);
    const afterReconnectMs = await firstReportAfter(bridge, started);
    t.diagnostic(`controller reconnect(): first report ${afterReconnectMs} ms after reconnect`);
    assert.ok(afterReconnectMs < 5_000);
  });

  it("an unreachable controller does not hold up the start: the bridge runs first, the resumption gives up after", async () => {
    await controller.close();
    controllerClosed = true;
    await bridge.stop();
    const before = lines().length;
    const outcome = () =>
      lines()
        .slice(before)
        .find((line) => line.includes("former subscriptions successfully"));
    await withDevices(bridge);
    await bridge.start();
    assert.equal(bridge.status, "running");
    // matter.js waits 2 s for a session to each controller it resumes; start() no longer waits for that.
    assert.equal(outcome(), undefined, "start() resolved before the resumption ended");
    await until("the resumption to give up", () => outcome() !== undefined);
    assert.match(outcome() ?? "", /Reestablished 0 of 1/);
  });

  it("a stop while the resumption still waits for a controller ends both", async () => {
    // Give the bridge a subscription to resume again: a new controller subscribes, then goes away.
    const second = await TestController.start({
      storagePath: `${dir.path}/ctl2`,
      localPort: await freeUdpPort(),
      fabricLabel: "Second",
    });
    try {
      const window = await bridge.openCommissioningWindow(180);
      const secondNode = await second.commission(window.manualPairingCode, { ip: "::1", port: options.port });
      assert.deepEqual(await second.partsList(secondNode, 1), [2, 3]);
    } finally {
      await second.close();
    }
    await bridge.stop();
    const before = lines().length;
    await withDevices(bridge);
    await bridge.start();
    await bridge.stop();
    assert.equal(bridge.status, "stopped");
    const after = lines().slice(before);
    // matter.js lets the node go offline once the resumption's connection attempt (at most 2 s) is over.
    assert.ok(
      after.some((line) => line.includes("Reestablished 0 of 1")),
      "the resumption ended before stop() resolved",
    );
    assert.ok(!after.some((line) => /"level":"(error|fatal)"|Unhandled/.test(line)), after.join("\n"));
  });
});
