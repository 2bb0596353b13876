/**
 * Several controllers on one bridge, as a home with Apple Home and Google Home has: two reference-SDK controllers on
 * their own fabrics (the second paired through the window the hub's API opens) and matter.js's controller on a
 * third, all subscribed at once. Every one sees HA's changes, commands from each reach HA, and when one removes
 * its fabric the others keep working.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type BridgeRecord, devicesOf, startBridgeWorld, startController, waitForStatus } from "../support/bridge-fixture.ts";
import { freeUdpPort, tempDir } from "../support/matter-fixtures.ts";
import { eventually } from "../support/test-context.ts";
import { ChipController } from "./support/chip-controller.ts";
import { ensurePaaTrustStore, interopNetwork } from "./support/interop-env.ts";

const network = interopNetwork();
const PUMP = "switch.garden_pump";
const ALPHA = 30;
const BETA = 31;

describe("several controllers on one bridge", { timeout: 300_000 }, () => {
  let world: Awaited<ReturnType<typeof startBridgeWorld>>;
  let chip: ChipController;
  let storage: Awaited<ReturnType<typeof tempDir>>;
  let matterJs: Awaited<ReturnType<typeof startController>> | undefined;
  let bridge: BridgeRecord;
  let pump: number;

  before(async () => {
    ensurePaaTrustStore();
    storage = await tempDir("chip-");
    world = await startBridgeWorld({ env: { HUB_MDNS_INTERFACE: network.hubInterface } });
    chip = await ChipController.start({
      names: ["alpha", "beta"],
      storage: `${storage.path}/chip.json`,
      logName: "multi-admin",
    });
    const created = await world.call<BridgeRecord>("POST", "/api/matter/bridges", {
      name: "Shared",
      port: await freeUdpPort(),
      filter: { include: [{ type: "entity_id", value: PUMP }] },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    bridge = await waitForStatus(world.call, created.body.id, "running");
    pump = (await devicesOf(world.call, bridge.id)).get(PUMP)?.endpointNumber as number;
    assert.ok(pump, `${PUMP} is exposed`);
  });

  after(async () => {
    await matterJs?.close();
    await chip?.stop();
    await world?.hub.stop();
    await world?.sim.close();
    await storage?.remove();
  });

  async function openWindow(): Promise<string> {
    const opened = await world.call<{ commissioningWindow: { manualPairingCode: string } }>(
      "POST",
      `/api/matter/bridges/${bridge.id}/actions/open-commissioning-window`,
    );
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    return opened.body.commissioningWindow.manualPairingCode;
  }

  async function fabricCount(): Promise<number> {
    return (await waitForStatus(world.call, bridge.id, "running")).commissioning.fabrics.length;
  }

  const subscribePump = (controller: string, node: number) =>
    chip.call("subscribe", { controller, node, paths: [[pump, "OnOff", "OnOff"]], minInterval: 0, maxInterval: 10 });

  const pumpReport = (controller: string, value: boolean, since: number) =>
    chip.waitForReport({ controller, endpoint: pump, cluster: "OnOff", attribute: "OnOff" }, (v) => v === value, { since });

  it("pairs a second reference controller through the window the hub's API opens; both get reports", async () => {
    await chip.call("commission", { controller: "alpha", node: ALPHA, code: bridge.commissioning.manualPairingCode });
    await chip.call("commission", { controller: "beta", node: BETA, code: await openWindow() });
    assert.equal(await fabricCount(), 2);
    await subscribePump("alpha", ALPHA);
    await subscribePump("beta", BETA);

    const since = chip.events.length;
    const target = world.sim.getState(PUMP)?.state !== "on";
    world.sim.setState(PUMP, target ? "on" : "off");
    await pumpReport("alpha", target, since);
    await pumpReport("beta", target, since);
  });

  it("serves matter.js's controller on a third fabric at the same time: reports and commands from all", async () => {
    const code = await openWindow();
    matterJs = await startController("matter.js controller", 3, network.hubInterface);
    const node = await matterJs.controller.commission(code, { ip: network.hubAddress, port: bridge.port });
    assert.equal(await fabricCount(), 3);

    const since = chip.events.length;
    const target = world.sim.getState(PUMP)?.state !== "on";
    const seenByMatterJs = matterJs.controller.waitForAttribute(node, pump, "onOff", "onOff", (v) => v === target, 20_000);
    world.sim.setState(PUMP, target ? "on" : "off");
    await pumpReport("alpha", target, since);
    await pumpReport("beta", target, since);
    await seenByMatterJs;

    world.sim.clearCalls();
    await matterJs.controller.invoke(node, pump, "onOff", "toggle");
    await world.sim.waitForCall(
      (c) => (c.service === "turn_on" || c.service === "turn_off") && c.entityIds.includes(PUMP),
      10_000,
    );
    world.sim.clearCalls();
    await chip.invoke("beta", BETA, pump, "OnOff", "On");
    await world.sim.waitForCall((c) => c.service === "turn_on" && c.entityIds.includes(PUMP), 10_000);
  });

  it("keeps the others working when one controller removes its fabric", async () => {
    await chip.call("unpair", { controller: "beta", node: BETA });
    await eventually(async () => (await fabricCount()) === 2, 20_000);

    const since = chip.events.length;
    const target = world.sim.getState(PUMP)?.state !== "on";
    world.sim.setState(PUMP, target ? "on" : "off");
    await pumpReport("alpha", target, since);
    world.sim.clearCalls();
    await chip.invoke("alpha", ALPHA, pump, "OnOff", "Toggle");
    await world.sim.waitForCall(
      (c) => (c.service === "turn_on" || c.service === "turn_off") && c.entityIds.includes(PUMP),
      10_000,
    );
    // The removed fabric can no longer talk to the bridge.
    await assert.rejects(chip.read("beta", BETA, [[0, "Descriptor", "PartsList"]]));
  });
});
