import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import { createDemoHome, type HaSimulator, startHaSimulator } from "../../simulators/home-assistant/index.ts";
import { readBackupArchive } from "../src/backup/archive-reader.ts";
import { DEFAULT_LIMITS } from "../src/backup/backup-manifest.ts";
import { SimulatedCloud } from "../src/plugins/builtin/appliance-cloud/simulated-cloud.ts";
import { VeSyncClient } from "../src/plugins/builtin/appliance-cloud/vesync-client.ts";
import type { SlotInfo } from "../src/plugins/managed-slot.ts";
import { ACCOUNT, EMAIL, PASSWORD } from "../src/plugins/testing/appliance-harness.ts";
import { api, type BridgeRecord, type NodeId, startController, waitForStatus } from "./support/bridge-fixture.ts";
import type { TestController } from "./support/matter-controller.ts";
import { freeUdpPort } from "./support/matter-fixtures.ts";
import { createTestHub, eventually, type TestHub } from "./support/test-context.ts";

const PANEL = "alarm_control_panel.home_alarm";

describe("built-in plugins in the real hub, through the HTTP API and a Matter controller", { timeout: 180_000 }, () => {
  let sim: HaSimulator;
  let cloud: SimulatedCloud;
  let hub: TestHub;
  let call: ReturnType<typeof api>;
  let controller: TestController;
  let closeController: () => Promise<void>;
  let bridge: BridgeRecord;
  let nodeId: NodeId;
  let work: string;

  const startHub = async () => {
    hub = await createTestHub({
      ha: { url: sim.url, token: "t" },
      dataDir: join(work, "data"),
      start: true,
      plugins: { cloudClient: () => new VeSyncClient({ fetch: cloud.fetch }) },
    });
    call = api(hub);
  };
  const pluginOn = async (name: string) => {
    const { body } = await call<{ bridges: { bridgeId: string; plugins: SlotInfo[] }[] }>("GET", "/api/plugins");
    return body.bridges.find((b) => b.bridgeId === bridge.id)?.plugins.find((p) => p.name === name);
  };
  const until = (name: string, check: (info: SlotInfo) => boolean) =>
    eventually(async () => {
      const info = await pluginOn(name);
      return info && check(info) ? info : undefined;
    }, 15_000);
  const endpoint = (info: SlotInfo, id: string) => {
    const number = info.devices.find((d) => d.id === id)?.endpointNumber;
    assert.ok(number, `${id} is mounted`);
    return number;
  };
  const configure = async (plugin: string, config: Record<string, unknown>) => {
    const saved = await call<{ applied: boolean; error: string | null; plugin: SlotInfo }>(
      "POST",
      `/api/plugins/${bridge.id}/${plugin}/config`,
      { config },
    );
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.deepEqual([saved.body.applied, saved.body.error], [true, null]);
    return saved.body.plugin;
  };
  const onOff = (ep: number) => controller.read(nodeId, ep, "onOff", "onOff");

  before(async () => {
    assertNetworkIsolated();
    work = await mkdtemp(join(tmpdir(), "plugins-builtin-"));
    sim = await startHaSimulator({ token: "t", home: createDemoHome(), motionMs: 0 });
    cloud = new SimulatedCloud({ email: EMAIL, password: PASSWORD, devices: ACCOUNT });
    await startHub();
    ({ controller, close: closeController } = await startController("built-in plugins"));
    const port = await freeUdpPort();
    const created = await call<BridgeRecord>("POST", "/api/matter/bridges", {
      name: "Built-ins",
      port,
      filter: { include: [{ type: "entity_id", value: "switch.garden_pump" }] },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    bridge = created.body;
    await waitForStatus(call, bridge.id, "running");
    nodeId = await controller.commission(bridge.commissioning.manualPairingCode, { ip: "::1", port });
  });
  after(async () => {
    await closeController?.();
    await hub?.stop();
    await sim?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it("security: the saved settings add the mode switches and the Alarm sensor live; arming and a trip reach HA", async () => {
    sim.setState("binary_sensor.hallway_motion", "off");
    const info = await configure("security", {
      exitDelaySeconds: 0,
      triggerTimeSeconds: 0,
      awaySetters: "light.porch",
      awayTriggers: "binary_sensor.hallway_motion",
      awayAlerts: "light.hallway, lock.front_door",
    });
    assert.equal(info.devices.length, 5);
    assert.equal(info.needsSettings, false, "configured: it no longer waits for its settings");
    assert.deepEqual(info.details, {
      warnings: ["awayAlerts: lock.front_door dropped: alerts must be siren, switch, light, script or scene entities"],
    });
    const away = endpoint(info, "mode-away");
    const alarm = endpoint(info, "alarm");
    await eventually(async () => (await controller.partsList(nodeId, 1)).includes(alarm));
    assert.ok((await controller.deviceTypes(nodeId, alarm)).includes(0x0015));
    assert.equal(await controller.read(nodeId, alarm, "booleanState", "stateValue"), true);

    sim.clearCalls();
    await controller.invoke(nodeId, away, "onOff", "on");
    await sim.waitForCall((c) => c.domain === "light" && c.service === "turn_on" && c.entityIds.includes("light.porch"), 5000);
    await until("security", (p) => p.status === "armed (Away)");
    sim.setState("binary_sensor.hallway_motion", "on");
    await sim.waitForCall((c) => c.service === "turn_on" && c.entityIds.includes("light.hallway"), 5000);
    await eventually(async () => (await controller.read(nodeId, alarm, "booleanState", "stateValue")) === false);
    assert.equal((await until("security", (p) => p.status?.startsWith("TRIPPED") ?? false)).status, "TRIPPED, armed (Away)");

    await controller.invoke(nodeId, away, "onOff", "off");
    await sim.waitForCall((c) => c.service === "turn_off" && c.entityIds.includes("light.hallway"), 5000);
    await eventually(async () => (await controller.read(nodeId, alarm, "booleanState", "stateValue")) === true);
    assert.equal((await call<BridgeRecord>("GET", `/api/matter/bridges/${bridge.id}`)).body.status, "running");
  });

  it("security: mirrors an HA alarm panel; a call the panel refuses (it needs a code) reverts the switch", async () => {
    sim.setState(PANEL, "disarmed", { code_format: null });
    const info = await configure("security", { sourceAlarmPanel: PANEL });
    const home = endpoint(info, "mode-home");
    const night = endpoint(info, "mode-night");
    sim.clearCalls();
    await controller.invoke(nodeId, home, "onOff", "on");
    const armed = await sim.waitForCall((c) => c.domain === "alarm_control_panel", 5000);
    assert.equal(armed.service, "alarm_arm_home");
    assert.deepEqual(armed.entityIds, [PANEL]);
    assert.equal(armed.serviceData.code, undefined, "no alarm code is sent");
    await eventually(() => sim.getState(PANEL)?.state === "armed_home");

    sim.setState(PANEL, "armed_home", { code_format: "number", code_arm_required: true });
    sim.clearCalls();
    await controller.invoke(nodeId, night, "onOff", "on");
    await sim.waitForCall((c) => c.service === "alarm_arm_night", 5000);
    await eventually(async () => (await onOff(night)) === false);
    assert.equal(await onOff(home), true, "the switches show the panel's real state");
    assert.ok(hub.logLines().some((line) => line.includes(`alarm_arm_night on ${PANEL} failed`)));

    sim.setState(PANEL, "armed_away");
    await eventually(async () => (await onOff(endpoint(info, "mode-away"))) === true);
    assert.equal(await onOff(home), false);
  });

  it("appliance cloud: switched-on devices appear on the controller and commands reach the cloud", async () => {
    const info = await configure("appliance-cloud", { email: EMAIL, password: PASSWORD, device_plug: true, device_puri: true });
    assert.match(info.status ?? "", /^signed in: 11 devices on the account, 2 shown; polling every 60 s$/);
    assert.deepEqual(
      info.devices.map((d) => [d.id, d.deviceType]),
      [
        ["plug", "on_off_plugin_unit"],
        ["puri", "air_purifier"],
      ],
    );
    const plug = endpoint(info, "plug");
    await eventually(async () => (await controller.partsList(nodeId, 1)).includes(plug));
    assert.ok((await controller.deviceTypes(nodeId, endpoint(info, "puri"))).includes(0x002d));
    await controller.invoke(nodeId, plug, "onOff", "on");
    await eventually(() => cloud.commands.some((c) => c.cid === "plug" && c.method === "setSwitch" && c.data.on === true));
    assert.equal(cloud.devices.get("plug")?.status.enabled, true);
  });

  it("appliance cloud: the password is never returned, never logged, never in a backup, and survives a restart", async () => {
    const text = async (path: string) => JSON.stringify((await call("GET", path)).body);
    for (const path of ["/api/plugins", `/api/plugins/${bridge.id}/appliance-cloud/config-schema`]) {
      assert.ok(!(await text(path)).includes(PASSWORD), path);
    }
    const info = await pluginOn("appliance-cloud");
    assert.deepEqual(info?.secretsSet, ["password"]);
    assert.equal(info?.config?.email, EMAIL);
    assert.equal(info?.config?.password, undefined);
    // Saving the form again without the password keeps the stored one.
    const resaved = await configure("appliance-cloud", { email: EMAIL, device_plug: true, device_puri: true });
    assert.match(resaved.status ?? "", /^signed in/);
    assert.ok(!JSON.stringify(resaved).includes(PASSWORD));
    const secrets = join(work, "data", "plugins", bridge.id, "appliance-cloud", "secrets.json");
    assert.deepEqual(JSON.parse(await readFile(secrets, "utf8")), { password: PASSWORD });

    const download = await hub.app.request("/api/backup/download?includeIdentity=true");
    assert.equal(download.status, 200);
    const seen: string[] = [];
    await readBackupArchive(Buffer.from(await download.arrayBuffer()), {
      limits: DEFAULT_LIMITS,
      sink: async (entry, data) => {
        seen.push(entry.path);
        assert.ok(!data.includes(PASSWORD), `${entry.path} holds the password`);
      },
    });
    assert.ok(seen.includes(`plugins/${bridge.id}/appliance-cloud/config.json`), "the configuration is backed up");
    assert.ok(!seen.some((path) => path.endsWith("secrets.json")));
    assert.ok(!hub.logLines().some((line) => line.includes(PASSWORD)), "never logged");

    const plug = endpoint(info as SlotInfo, "plug");
    await hub.stop();
    await startHub();
    await waitForStatus(call, bridge.id, "running");
    const again = await until("appliance-cloud", (p) => p.devices.length === 2 && /^signed in/.test(p.status ?? ""));
    assert.equal(endpoint(again, "plug"), plug, "same endpoint number after the restart");
    assert.equal(await onOff(plug), true);
    // The security plugin came back mirroring the panel, without a re-save.
    assert.equal((await until("security", (p) => p.devices.length === 5)).status, "mirroring the panel (Away)");
    assert.ok(!hub.logLines().some((line) => line.includes(PASSWORD)));
  });
});
