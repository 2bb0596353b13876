/**
 * The reference SDK's controller commissions the hub's bridges (demo home on the HA simulator): once discovering the
 * bridge over DNS-SD on the test link, once by address, both with device attestation checked against the Matter
 * test PAA. Then it reads what a phone app reads first: the aggregator's parts and each bridged endpoint's
 * Bridged Device Basic Information.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type BridgeRecord, devicesOf, startBridgeWorld, waitForStatus } from "../support/bridge-fixture.ts";
import { freeUdpPort, tempDir } from "../support/matter-fixtures.ts";
import { ChipController } from "./support/chip-controller.ts";
import { ensurePaaTrustStore, interopNetwork } from "./support/interop-env.ts";

const network = interopNetwork();

describe("reference controller commissions the hub", { timeout: 240_000 }, () => {
  let world: Awaited<ReturnType<typeof startBridgeWorld>>;
  let chip: ChipController;
  let storage: Awaited<ReturnType<typeof tempDir>>;

  before(async () => {
    ensurePaaTrustStore();
    storage = await tempDir("chip-");
    world = await startBridgeWorld({ env: { HUB_MDNS_INTERFACE: network.hubInterface } });
    chip = await ChipController.start({ names: ["alpha"], storage: `${storage.path}/chip.json`, logName: "commissioning" });
  });

  after(async () => {
    await chip?.stop();
    await world?.hub.stop();
    await world?.sim.close();
    await storage?.remove();
  });

  async function createBridge(name: string, include: { type: string; value: string }[]): Promise<BridgeRecord> {
    const port = await freeUdpPort();
    const created = await world.call<BridgeRecord>("POST", "/api/matter/bridges", { name, port, filter: { include } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return waitForStatus(world.call, created.body.id, "running");
  }

  it("over DNS-SD with the manual pairing code, attestation checked", async () => {
    const bridge = await createBridge("Lights", [{ type: "domain", value: "light" }]);
    const node = await chip.call<number>("commission", {
      controller: "alpha",
      node: 10,
      code: bridge.commissioning.manualPairingCode,
    });
    assert.equal(node, 10);

    const devices = [...(await devicesOf(world.call, bridge.id)).values()].filter((d) => d.endpointNumber !== null);
    assert.ok(devices.length > 0, "the demo home has lights");
    const root = await chip.read("alpha", 10, [
      [0, "Descriptor", "PartsList"],
      [0, "BasicInformation", "VendorID"],
    ]);
    const parts = root["0"]?.Descriptor?.PartsList as number[];
    for (const device of devices) assert.ok(parts.includes(device.endpointNumber as number), `${device.entityId} is a part`);

    const bridged = await chip.read("alpha", 10, [[null, "BridgedDeviceBasicInformation"]]);
    for (const device of devices) {
      const info = bridged[String(device.endpointNumber)]?.BridgedDeviceBasicInformation;
      assert.ok(info, `${device.entityId} has Bridged Device Basic Information`);
      assert.equal(info.Reachable, device.reachable, `${device.entityId}: Reachable as the hub says`);
      assert.equal(typeof info.UniqueID, "string");
      assert.ok((info.NodeLabel as string).length > 0);
    }

    const record = await waitForStatus(world.call, bridge.id, "running");
    assert.equal(record.commissioning.commissioned, true);
    assert.equal(record.commissioning.fabrics.length, 1);
  });

  it("by address (PASE to the bridge's IPv6 address and port), attestation checked", async () => {
    const bridge = await createBridge("Switches", [{ type: "domain", value: "switch" }]);
    const node = await chip.call<number>("commission", {
      controller: "alpha",
      node: 11,
      address: network.hubAddress,
      port: bridge.port,
      passcode: bridge.commissioning.passcode,
    });
    assert.equal(node, 11);
    const root = await chip.read("alpha", 11, [[0, "Descriptor", "PartsList"]]);
    const parts = root["0"]?.Descriptor?.PartsList as number[] | undefined;
    assert.ok(parts && parts.length > 0, "the bridge lists its switches");
  });
});
