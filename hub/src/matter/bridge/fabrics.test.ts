import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { NodeId } from "@matter/main";
import { AdministratorCommissioning, OnOff } from "@matter/main/clusters";
import { memoryLogger } from "../../../../lib/testing/fixtures.ts";
import { assertNetworkIsolated } from "../../../../lib/testing/isolation.ts";
import { TestController } from "../../../test/support/matter-controller.ts";
import { type CommandLog, freeUdpPort, tempDir, testLight } from "../../../test/support/matter-fixtures.ts";
import { createMatterEnvironment, type MatterEnvironment } from "../matter-environment.ts";
import { BridgeNode, type CommissioningInfo } from "./node.ts";

const labels = (info: CommissioningInfo | undefined) => info?.fabrics.map((fabric) => fabric.label);

/** Several controllers (ecosystems) on one bridge, a controller leaving, and a factory reset. */
describe("BridgeNode fabrics", () => {
  const { log } = memoryLogger("info");
  const commands: CommandLog = [];
  const events: string[] = [];
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let matter: MatterEnvironment;
  let bridge: BridgeNode;
  let port: number;
  let first: TestController;
  let second: TestController;
  let third: TestController;
  let firstNode: NodeId;

  before(async () => {
    assertNetworkIsolated();
    dir = await tempDir("bridge-fabrics");
    matter = createMatterEnvironment({ storagePath: `${dir.path}/hub`, log, mdnsInterface: "lo" });
    port = await freeUdpPort();
    bridge = new BridgeNode({
      id: "bridge-f",
      name: "Fabric Bridge",
      port,
      vendorId: 0xfff1,
      productId: 0x8000,
      vendorName: "Matter Hub",
      productName: "Hub Bridge",
      serialNumber: "fabrics-1",
      uniqueId: "fabrics-1-uid",
      environment: matter,
    });
    for (const name of ["commissioned", "decommissioned", "fabricsChanged"] as const) {
      bridge.on(name, (info) => events.push(`${name}:${info.fabrics.length}`));
    }
    await bridge.addDevice(testLight("light-1", "Light", commands));
    await bridge.start();
    const controller = (label: string, fabricId: number) =>
      freeUdpPort().then((localPort) =>
        TestController.start({ storagePath: `${dir.path}/${fabricId}`, localPort, fabricLabel: label, adminFabricId: fabricId }),
      );
    [first, second, third] = await Promise.all([
      controller("Ecosystem A", 1),
      controller("Ecosystem B", 2),
      controller("Ecosystem C", 3),
    ]);
    firstNode = await first.commission(bridge.commissioning()?.manualPairingCode ?? "", { ip: "::1", port });
  });
  after(async () => {
    await bridge.stop();
    await Promise.all([first, second, third].map((controller) => controller?.close()));
    await matter.close();
    await dir.remove();
  });

  it("opens a commissioning window from the bridge side for a second controller", async () => {
    const window = await bridge.openCommissioningWindow(180);
    assert.notEqual(window.manualPairingCode, bridge.commissioning()?.manualPairingCode, "one-time codes, not the bridge's own");
    assert.ok(window.expiresAt && Date.parse(window.expiresAt) > Date.now() + 170_000);
    assert.equal(
      await first.read(firstNode, 0, AdministratorCommissioning, "windowStatus"),
      AdministratorCommissioning.CommissioningWindowStatus.EnhancedWindowOpen,
    );

    const secondNode = await second.commission(window.manualPairingCode, { ip: "127.0.0.1", port });
    assert.deepEqual(labels(bridge.commissioning()), ["Ecosystem A", "Ecosystem B"]);
    assert.equal(
      await first.read(firstNode, 0, AdministratorCommissioning, "windowStatus"),
      AdministratorCommissioning.CommissioningWindowStatus.WindowNotOpen,
      "the window closed once used",
    );
    await second.invoke(secondNode, 2, OnOff, "on");
    assert.deepEqual(commands, ["light-1:on"]);
    assert.ok(events.includes("fabricsChanged:2"));
  });

  it("accepts a window opened by a controller, and a controller leaving (RemoveFabric)", async () => {
    const window = await first.openCommissioningWindow(firstNode);
    const thirdNode = await third.commission(window.manualPairingCode, { ip: "::1", port });
    assert.deepEqual(labels(bridge.commissioning()), ["Ecosystem A", "Ecosystem B", "Ecosystem C"]);
    await third.decommission(thirdNode);
    assert.deepEqual(labels(bridge.commissioning()), ["Ecosystem A", "Ecosystem B"]);
    assert.deepEqual(third.nodeIds(), []);
  });

  it("factory reset: no fabrics, new codes, commissionable again with the devices kept", async () => {
    const before = bridge.commissioning();
    events.length = 0;
    const reset = await bridge.factoryReset();
    assert.equal(reset.commissioned, false);
    assert.deepEqual(reset.fabrics, []);
    assert.notEqual(reset.manualPairingCode, before?.manualPairingCode, "a new passcode/discriminator");
    assert.deepEqual(bridge.commissioning(), reset);
    assert.deepEqual(events, ["decommissioned:0", "fabricsChanged:0"]);
    assert.equal(bridge.status, "running");
    assert.deepEqual(
      bridge.devices().map((device) => device.id),
      ["light-1"],
    );

    const nodeId = await third.commission(reset.manualPairingCode, { ip: "::1", port });
    assert.deepEqual(labels(bridge.commissioning()), ["Ecosystem C"]);
    assert.deepEqual(await third.partsList(nodeId, 1), [2]);
  });
});
