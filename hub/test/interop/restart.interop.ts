/**
 * A hub restart as the reference controller sees it: the bridge comes back with the same fabric, endpoint numbers and
 * unique ids, nobody commissions again, and reports resume on the controller's subscription. The time from the new
 * hub's start to the first report the controller receives is printed for docs/INTEROP.md.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createDemoHome } from "../../../simulators/home-assistant/demo-home.ts";
import { type HaSimulator, startHaSimulator } from "../../../simulators/home-assistant/index.ts";
import { api, type BridgeRecord, devicesOf, waitForStatus } from "../support/bridge-fixture.ts";
import { freeUdpPort, tempDir } from "../support/matter-fixtures.ts";
import { createTestHub, type TestHub } from "../support/test-context.ts";
import { ChipController } from "./support/chip-controller.ts";
import { ensurePaaTrustStore, interopNetwork } from "./support/interop-env.ts";

const network = interopNetwork();
const ENTITIES = ["switch.garden_pump", "light.living_room_ceiling", "light.porch"];
const NODE = 40;

describe("hub restart under the reference controller", { timeout: 300_000 }, () => {
  let sim: HaSimulator;
  let hub: TestHub | undefined;
  let chip: ChipController;
  let data: Awaited<ReturnType<typeof tempDir>>;
  let storage: Awaited<ReturnType<typeof tempDir>>;

  const startHub = async () => {
    hub = await createTestHub({
      ha: { url: sim.url, token: "t" },
      start: true,
      dataDir: data.path,
      env: { HUB_MDNS_INTERFACE: network.hubInterface },
    });
    return api(hub);
  };

  before(async () => {
    ensurePaaTrustStore();
    data = await tempDir("hub-restart-");
    storage = await tempDir("chip-");
    sim = await startHaSimulator({ token: "t", home: createDemoHome(), motionMs: 0 });
    chip = await ChipController.start({ names: ["alpha"], storage: `${storage.path}/chip.json`, logName: "restart" });
  });

  after(async () => {
    await chip?.stop();
    await hub?.stop();
    await sim?.close();
    await data?.remove();
    await storage?.remove();
  });

  /** Endpoint number and UniqueID per exposed entity, as the controller reads them. */
  async function identities(): Promise<Record<string, unknown>> {
    const bridged = await chip.read("alpha", NODE, [[null, "BridgedDeviceBasicInformation", "UniqueID"]]);
    return Object.fromEntries(
      Object.entries(bridged).map(([endpoint, clusters]) => [endpoint, clusters.BridgedDeviceBasicInformation?.UniqueID]),
    );
  }

  it("keeps fabric, endpoints and unique ids, and resumes reports without commissioning again", async () => {
    let call = await startHub();
    const created = await call<BridgeRecord>("POST", "/api/matter/bridges", {
      name: "Restarted",
      port: await freeUdpPort(),
      filter: { include: ENTITIES.map((value) => ({ type: "entity_id", value })) },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const bridge = await waitForStatus(call, created.body.id, "running");
    await chip.call("commission", { controller: "alpha", node: NODE, code: bridge.commissioning.manualPairingCode });
    const endpointsBefore = Object.fromEntries(
      [...(await devicesOf(call, bridge.id))].map(([entityId, row]) => [entityId, row.endpointNumber]),
    );
    const idsBefore = await identities();
    assert.equal(Object.keys(idsBefore).length, ENTITIES.length);
    const pump = endpointsBefore["switch.garden_pump"] as number;
    await chip.call("subscribe", { controller: "alpha", node: NODE, paths: [[pump, "OnOff", "OnOff"]], maxInterval: 10 });

    await hub?.stop({ keepData: true });
    hub = undefined;
    const restartedAt = Date.now();
    const since = chip.events.length;
    call = await startHub();
    const after = await waitForStatus(call, bridge.id, "running");
    assert.equal(after.commissioning.commissioned, true);
    assert.equal(after.commissioning.fabrics.length, 1, "the controller's fabric survived");

    // The first report after the restart: the resumed subscription's (matter.js re-establishes former
    // subscriptions) or the controller's own resubscription, whichever comes first.
    await chip.waitFor((event) => event.event === "report" || event.event === "resubscribed", 60_000, since);
    const firstReportMs = Date.now() - restartedAt;
    const target = sim.getState("switch.garden_pump")?.state !== "on";
    const changeSince = chip.events.length;
    sim.setState("switch.garden_pump", target ? "on" : "off");
    await chip.waitForReport({ endpoint: pump, cluster: "OnOff", attribute: "OnOff" }, (v) => v === target, {
      since: changeSince,
      timeoutMs: 30_000,
    });
    console.log(`interop timing: first report ${firstReportMs} ms after the hub restarted`);

    const endpointsAfter = Object.fromEntries(
      [...(await devicesOf(call, bridge.id))].map(([entityId, row]) => [entityId, row.endpointNumber]),
    );
    assert.deepEqual(endpointsAfter, endpointsBefore);
    assert.deepEqual(await identities(), idsBefore);
  });
});
