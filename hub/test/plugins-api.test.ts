import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import { createDemoHome, type HaSimulator, startHaSimulator } from "../src/ha-simulator/index.ts";
import type { SlotInfo } from "../src/plugins/managed-slot.ts";
import {
  EXAMPLE_PLUGIN_DIR,
  HANGING_PLUGIN,
  offlineNpmEnv,
  packPlugin,
  THROWING_PLUGIN,
  writePluginFolder,
} from "../src/plugins/testing/plugin-fixtures.ts";
import { type PluginHub, startPluginHub } from "../src/plugins/testing/plugin-hub.ts";
import { type BridgeRecord, type NodeId, startController } from "./support/bridge-fixture.ts";
import type { TestController } from "./support/matter-controller.ts";
import { freeUdpPort } from "./support/matter-fixtures.ts";
import { eventually } from "./support/test-context.ts";

const EXAMPLE = "hub-plugin-example";
const MAPPER = `
export default class Mapper {
  name = "mapper-plugin"; version = "0.1.0";
  onStart(context) { context.registerDomainMapping({ domain: "person", matterDeviceType: "occupancy_sensor" }); }
  onConfigure() {} onShutdown() {} getConfigSchema() { return undefined; } onConfigChanged() {}
}
`;

describe("plugins through the HTTP API and a Matter controller", { timeout: 90_000 }, () => {
  let sim: HaSimulator;
  let hub: PluginHub;
  let controller: TestController;
  let closeController: () => Promise<void>;
  let bridge: BridgeRecord;
  let nodeId: NodeId;
  let work: string;

  const pluginOn = async (name: string, bridgeId = bridge.id) => {
    const { body } = await hub.call<{ bridges: { bridgeId: string; plugins: SlotInfo[] }[] }>("GET", "/api/plugins");
    return body.bridges.find((b) => b.bridgeId === bridgeId)?.plugins.find((p) => p.name === name);
  };
  const until = (name: string, check: (info: SlotInfo) => boolean, timeoutMs = 10_000) =>
    eventually(async () => {
      const info = await pluginOn(name);
      return info && check(info) ? info : undefined;
    }, timeoutMs);
  const logged = (text: string) => eventually(() => hub.logLines().some((line) => line.includes(text)), 10_000);
  const restart = async () => {
    assert.equal((await hub.call("POST", `/api/matter/bridges/${bridge.id}/actions/restart`)).status, 200);
  };

  before(async () => {
    assertNetworkIsolated();
    work = await mkdtemp(join(tmpdir(), "plugins-api-"));
    sim = await startHaSimulator({ token: "t", home: createDemoHome(), motionMs: 0 });
    hub = await startPluginHub({
      ha: { url: sim.url, token: "t" },
      plugins: { lifecycleTimeoutMs: 400, retryDelayMs: 50, npm: { env: offlineNpmEnv(join(work, "npm-cache")) } },
    });
    ({ controller, close: closeController } = await startController("plugin controller"));
    const port = await freeUdpPort();
    const created = await hub.call<BridgeRecord>("POST", "/api/matter/bridges", {
      name: "Plugin bridge",
      port,
      filter: { include: ["switch.garden_pump", "person.alex"].map((value) => ({ type: "entity_id", value })) },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    bridge = created.body;
    await eventually(
      async () => (await hub.call<BridgeRecord>("GET", `/api/matter/bridges/${bridge.id}`)).body.status === "running",
      20_000,
    );
    nodeId = await controller.commission(bridge.commissioning.manualPairingCode, { ip: "::1", port });
  });
  after(async () => {
    await closeController?.();
    await hub?.stop();
    await sim?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  const endpointOf = (info: SlotInfo, id: string) => {
    const number = info.devices.find((device) => device.id === id)?.endpointNumber;
    assert.ok(number, `${id} has an endpoint number`);
    return number;
  };

  it("lists the built-ins on the bridge, enabled and without devices until configured", async () => {
    for (const name of ["security", "appliance-cloud"]) {
      const info = await until(name, (p) => p.state === "running");
      assert.equal(info.builtin, true);
      assert.equal(info.devices.length, 0);
      assert.match(info.status ?? "", /not configured/);
    }
  });

  it("installs the example plugin from a .tgz, shows its devices on the controller and reports controller writes", async () => {
    const archive = await readFile(await packPlugin(EXAMPLE_PLUGIN_DIR, join(work, "packed"), join(work, "npm-cache")));
    const upload = await hub.call<{ package: { name: string; source: { type: string } } }>(
      "POST",
      "/api/plugins/upload",
      undefined,
      archive,
    );
    assert.equal(upload.status, 201, JSON.stringify(upload.body));
    assert.equal(upload.body.package.name, EXAMPLE);
    assert.equal(upload.body.package.source.type, "upload");
    assert.equal((await pluginOn(EXAMPLE))?.enabled, false, "installed packages start disabled on each bridge");

    const enabled = await hub.call("POST", `/api/plugins/${bridge.id}/${EXAMPLE}/enable`);
    assert.equal(enabled.status, 200, JSON.stringify(enabled.body));
    const info = await until(EXAMPLE, (p) => p.state === "running" && p.devices.length === 3);
    const switchEp = endpointOf(info, "switch");
    const fanEp = endpointOf(info, "fan");
    const parts = await eventually(async () => {
      const list = await controller.partsList(nodeId, 1);
      return list.includes(switchEp) && list.includes(fanEp) ? list : undefined;
    });
    assert.ok(parts.includes(endpointOf(info, "temperature")));
    assert.ok((await controller.deviceTypes(nodeId, switchEp)).includes(0x010a));
    assert.equal(await controller.read(nodeId, endpointOf(info, "temperature"), "temperatureMeasurement", "measuredValue"), 2150);

    await controller.invoke(nodeId, switchEp, "onOff", "on");
    await logged("onAttributeWrite switch onOff.onOff = true");
    await controller.write(nodeId, fanEp, "fanControl", "percentSetting", 50);
    await logged("onAttributeWrite fan fanControl.percentSetting = 50");
    await eventually(async () => (await controller.read(nodeId, fanEp, "fanControl", "percentCurrent")) === 50);
    const storage = JSON.parse(await readFile(join(hub.dataDir, "plugins", bridge.id, EXAMPLE, "storage.json"), "utf8"));
    assert.deepEqual(storage.lastWrite, { deviceId: "fan", clusterId: "fanControl", attribute: "percentSetting", value: 50 });
  });

  it("applies a saved configuration without a bridge restart, and serves the config schema", async () => {
    const schema = await hub.call<{ schema: { properties: Record<string, unknown> } }>(
      "GET",
      `/api/plugins/${bridge.id}/${EXAMPLE}/config-schema`,
    );
    assert.equal(schema.status, 200);
    assert.ok("temperature" in schema.body.schema.properties);
    const saved = await hub.call<{ applied: boolean }>("POST", `/api/plugins/${bridge.id}/${EXAMPLE}/config`, {
      config: { temperature: 19 },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.applied, true);
    const info = await until(EXAMPLE, (p) => p.state === "running");
    assert.equal(await controller.read(nodeId, endpointOf(info, "temperature"), "temperatureMeasurement", "measuredValue"), 1900);
  });

  it("keeps plugin endpoint numbers across a bridge restart", async () => {
    const before = (await until(EXAMPLE, (p) => p.state === "running")).devices.map((d) => [d.id, d.endpointNumber]);
    await restart();
    const after = await until(EXAMPLE, (p) => p.state === "running" && p.devices.length === 3, 20_000);
    assert.deepEqual(after.devices.map((d) => [d.id, d.endpointNumber]).sort(), before.sort());
  });

  it("maps an HA domain the hub does not handle through a plugin's domain mapping", async () => {
    const dir = await writePluginFolder(work, "mapper-plugin", MAPPER);
    assert.equal((await hub.call("POST", "/api/plugins/install-local", { path: dir })).status, 201);
    assert.equal((await hub.call("POST", `/api/plugins/${bridge.id}/mapper-plugin/enable`)).status, 200);
    await eventually(async () => {
      const { body } = await hub.call<{ devices: { entityId: string; deviceType: string | null }[] }>(
        "GET",
        `/api/matter/bridges/${bridge.id}/devices`,
      );
      return body.devices.find((d) => d.entityId === "person.alex")?.deviceType === "occupancy_sensor";
    });
    assert.equal((await hub.call("POST", `/api/plugins/${bridge.id}/mapper-plugin/disable`)).status, 200);
    await eventually(async () => {
      const { body } = await hub.call<{ devices: { entityId: string; skipped: string | null }[] }>(
        "GET",
        `/api/matter/bridges/${bridge.id}/devices`,
      );
      return body.devices.find((d) => d.entityId === "person.alex")?.skipped?.includes("person");
    });
  });

  it("trips the breaker on the third failure of a throwing plugin; reset re-enables it", async () => {
    const dir = await writePluginFolder(work, "throwing-plugin", THROWING_PLUGIN);
    await writeFile(join(dir, "fail"), "");
    assert.equal((await hub.call("POST", "/api/plugins/install-local", { path: dir })).status, 201);
    assert.equal((await hub.call("POST", `/api/plugins/${bridge.id}/throwing-plugin/enable`)).status, 200);
    const tripped = await until("throwing-plugin", (p) => p.state === "tripped");
    assert.equal(tripped.failures, 3);
    assert.equal(tripped.autoDisabled, true);
    assert.match(tripped.lastError ?? "", /onStart failed: cannot reach the imaginary device/);
    await logged("circuit breaker tripped: plugin throwing-plugin auto-disabled after 3 consecutive failures");
    assert.equal((await hub.call("POST", `/api/plugins/${bridge.id}/throwing-plugin/enable`)).status, 409);
    assert.equal((await hub.call<BridgeRecord>("GET", `/api/matter/bridges/${bridge.id}`)).body.status, "running");

    await rm(join(dir, "fail"));
    assert.equal((await hub.call("POST", `/api/plugins/${bridge.id}/throwing-plugin/reset`)).status, 200);
    const recovered = await until("throwing-plugin", (p) => p.state === "running" && p.devices.length === 1);
    assert.equal(recovered.failures, 0);
    const lamp = endpointOf(recovered, "lamp");
    await eventually(async () => (await controller.partsList(nodeId, 1)).includes(lamp));
  });

  it("times a hanging onStart out without blocking the bridge", async () => {
    const dir = await writePluginFolder(work, "hanging-plugin", HANGING_PLUGIN);
    assert.equal((await hub.call("POST", "/api/plugins/install-local", { path: dir })).status, 201);
    assert.equal((await hub.call("POST", `/api/plugins/${bridge.id}/hanging-plugin/enable`)).status, 200);
    const failed = await until("hanging-plugin", (p) => p.failures >= 1);
    assert.match(failed.lastError ?? "", /onStart failed: did not finish within 400 ms/);
    // Meanwhile the bridge serves its HA devices and the other plugins.
    const { body } = await hub.call<{ devices: { entityId: string; endpointNumber: number }[] }>(
      "GET",
      `/api/matter/bridges/${bridge.id}/devices`,
    );
    const pump = body.devices.find((d) => d.entityId === "switch.garden_pump")?.endpointNumber;
    assert.ok(pump);
    sim.clearCalls();
    await controller.invoke(nodeId, pump, "onOff", "on");
    await sim.waitForCall((call) => call.domain === "switch" && call.service === "turn_on", 5000);
    assert.equal((await pluginOn(EXAMPLE))?.state, "running");
    await until("hanging-plugin", (p) => p.state === "tripped");
  });

  it("disables a plugin: its devices leave at once and the choice survives a restart", async () => {
    const info = await until(EXAMPLE, (p) => p.state === "running");
    const switchEp = endpointOf(info, "switch");
    const disabled = await hub.call<{ plugin: SlotInfo }>("POST", `/api/plugins/${bridge.id}/${EXAMPLE}/disable`);
    assert.equal(disabled.status, 200);
    assert.equal(disabled.body.plugin.devices.length, 0);
    assert.equal(disabled.body.plugin.state, "disabled");
    await eventually(async () => !(await controller.partsList(nodeId, 1)).includes(switchEp));
    await restart();
    await until("throwing-plugin", (p) => p.state === "running", 20_000);
    const after = await pluginOn(EXAMPLE);
    assert.equal(after?.enabled, false);
    assert.equal(after?.devices.length, 0);
  });

  it("refuses a plugin that bundles its own matter.js", async () => {
    const dir = await writePluginFolder(work, "bundling-plugin", "export default class {}", {
      dependencies: { "@matter/main": "^0.17.0" },
    });
    const refused = await hub.call<{ error: string }>("POST", "/api/plugins/install-local", { path: dir });
    assert.equal(refused.status, 400);
    assert.match(refused.body.error, /bundling-plugin bundles its own matter\.js \(@matter\/main/);
  });

  it("hosts no plugins on a Server Mode bridge, and says so", async () => {
    const created = await hub.call<BridgeRecord>("POST", "/api/matter/bridges", {
      name: "Server bridge",
      port: await freeUdpPort(),
      serverMode: true,
      filter: { include: [{ type: "entity_id", value: "switch.tv_plug" }] },
    });
    assert.equal(created.status, 201);
    const { body } = await hub.call<{ bridges: { bridgeId: string; serverMode: boolean; note: string }[] }>(
      "GET",
      "/api/plugins",
    );
    const entry = body.bridges.find((b) => b.bridgeId === created.body.id);
    assert.equal(entry?.serverMode, true);
    assert.match(entry?.note ?? "", /Server Mode: it hosts no plugins/);
    const refused = await hub.call<{ error: string }>("POST", `/api/plugins/${created.body.id}/security/enable`);
    assert.equal(refused.status, 409);
    assert.equal((await hub.call("DELETE", `/api/matter/bridges/${created.body.id}`)).status, 204);
  });

  it("uninstalls a package: it leaves every bridge and the package list", async () => {
    const removed = await hub.call("POST", "/api/plugins/uninstall", { packageName: "throwing-plugin" });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.equal(await pluginOn("throwing-plugin"), undefined);
    const { body } = await hub.call<{ packages: { name: string }[] }>("GET", "/api/plugins");
    assert.ok(!body.packages.some((p) => p.name === "throwing-plugin"));
    assert.equal((await hub.call("POST", "/api/plugins/uninstall", { packageName: "throwing-plugin" })).status, 404);
  });
});
