import assert from "node:assert/strict";
import { access, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { memoryLogger } from "../../lib/testing/fixtures.ts";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import { createDemoHome, type HaSimulator, startHaSimulator } from "../../simulators/home-assistant/index.ts";
import type { SlotInfo } from "../src/plugins/managed-slot.ts";
import { type FakeNpmRegistry, startFakeNpmRegistry } from "../src/plugins/testing/fake-npm-registry.ts";
import {
  EXAMPLE_PLUGIN_DIR,
  HANGING_PLUGIN,
  offlineNpmEnv,
  packPlugin,
  THROWING_PLUGIN,
  writePluginFolder,
} from "../src/plugins/testing/plugin-fixtures.ts";
import {
  api,
  type BridgeRecord,
  type DeviceRow,
  devicesOf,
  type NodeId,
  startController,
  waitForStatus,
} from "./support/bridge-fixture.ts";
import type { TestController } from "./support/matter-controller.ts";
import { freeUdpPort } from "./support/matter-fixtures.ts";
import { createTestHub, eventually, type TestHub } from "./support/test-context.ts";

const EXAMPLE = "hub-plugin-example";
const UPLOAD_LIMIT = 2 * 1024 * 1024;

/** Maps `person` (a domain the hub does not handle) and tries `switch` (one it does). */
const mapper = (name: string, type: string) => `
export default class Mapper {
  name = "${name}"; version = "0.1.0";
  onStart(context) {
    context.registerDomainMapping({ domain: "switch", matterDeviceType: "on_off_light" });
    context.registerDomainMapping({ domain: "person", matterDeviceType: "${type}" });
  }
  onConfigure() {} onShutdown() {} getConfigSchema() { return undefined; } onConfigChanged() {}
}
`;

/** Installed from the (fake) registry by name; only onStart, counts its starts in its storage. */
const REGISTRY_PLUGIN = `
export default class RegistryPlugin {
  async onStart(context) {
    const starts = (context.storage.get("starts") ?? 0) + 1;
    await context.storage.set("starts", starts);
    await context.registerDevice({
      id: "door", name: "Registry door", deviceType: "contact_sensor",
      clusters: [{ clusterId: "booleanState", attributes: { stateValue: true } }],
    });
  }
}
`;

interface PluginsList {
  apiVersion: number;
  builtin: { name: string; displayName: string; version: string; description: string; experimental: boolean }[];
  packages: {
    name: string;
    version: string;
    source: { type: string; spec?: string; file?: string; path?: string };
    status: string;
    error: string | null;
    apiVersionMismatch: boolean;
    hubPluginApiVersion: number | null;
  }[];
  bridges: {
    bridgeId: string;
    bridgeName: string;
    serverMode: boolean;
    note: string | null;
    plugins: SlotInfo[];
    domainMappings: { domain: string; matterDeviceType: string; plugin: string }[];
  }[];
}

describe("plugins in the real hub, through the HTTP API and a Matter controller", { timeout: 240_000 }, () => {
  let sim: HaSimulator;
  let registry: FakeNpmRegistry;
  let hub: TestHub;
  let call: ReturnType<typeof api>;
  let controller: TestController;
  let closeController: () => Promise<void>;
  let bridge: BridgeRecord;
  let nodeId: NodeId;
  let work: string;
  let dataDir: string;

  const startHub = async () => {
    hub = await createTestHub({
      ha: { url: sim.url, token: "t" },
      dataDir,
      start: true,
      plugins: {
        // Short enough for the hanging plugin, long enough for a real start on a busy machine.
        lifecycleTimeoutMs: 2000,
        retryDelayMs: 50,
        uploadLimitBytes: UPLOAD_LIMIT,
        npm: { env: offlineNpmEnv(join(work, "npm-cache"), registry.url) },
      },
    });
    call = api(hub);
  };
  const restartHub = async () => {
    await hub.stop();
    await startHub();
    await waitForStatus(call, bridge.id, "running");
  };
  const list = async () => (await call<PluginsList>("GET", "/api/plugins")).body;
  const pluginOn = async (name: string, bridgeId = bridge.id) =>
    (await list()).bridges.find((b) => b.bridgeId === bridgeId)?.plugins.find((p) => p.name === name);
  const until = (name: string, check: (info: SlotInfo) => boolean, timeoutMs = 10_000, bridgeId = bridge.id) =>
    eventually(async () => {
      const info = await pluginOn(name, bridgeId);
      return info && check(info) ? info : undefined;
    }, timeoutMs);
  const logged = (text: string) => eventually(() => hub.logLines().some((line) => line.includes(text)), 10_000);
  const upload = async (bytes: Uint8Array, type = "application/octet-stream") => {
    const response = await hub.app.request("/api/plugins/upload", {
      method: "POST",
      headers: { "content-type": type },
      body: Buffer.from(bytes),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> & { error?: string } };
  };
  const endpointOf = (info: SlotInfo, id: string) => {
    const number = info.devices.find((device) => device.id === id)?.endpointNumber;
    assert.ok(number, `${id} has an endpoint number`);
    return number;
  };
  /** `npm pack` with its own cache: the hub's npm cache must only hold what the hub fetched. */
  const pack = async (dir: string) => readFile(await packPlugin(dir, join(work, "packed"), join(work, "pack-cache")));
  const numbers = (info: SlotInfo) => info.devices.map((d) => [d.id, d.endpointNumber]).sort();
  const exists = (path: string) =>
    access(path).then(
      () => true,
      () => false,
    );

  before(async () => {
    assertNetworkIsolated();
    work = await mkdtemp(join(tmpdir(), "plugins-api-"));
    dataDir = join(work, "data");
    sim = await startHaSimulator({ token: "t", home: createDemoHome(), motionMs: 0 });
    registry = await startFakeNpmRegistry(memoryLogger().log);
    await startHub();
    ({ controller, close: closeController } = await startController("plugin controller"));
    const port = await freeUdpPort();
    const created = await call<BridgeRecord>("POST", "/api/matter/bridges", {
      name: "Plugin bridge",
      port,
      filter: { include: ["switch.garden_pump", "person.alex"].map((value) => ({ type: "entity_id", value })) },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    bridge = created.body;
    await waitForStatus(call, bridge.id, "running");
    nodeId = await controller.commission(bridge.commissioning.manualPairingCode, { ip: "::1", port });
  });
  after(async () => {
    await closeController?.();
    await hub?.stop();
    await registry?.close();
    await sim?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it("lists the built-ins on every standard bridge: enabled, running, no devices until configured", async () => {
    const body = await list();
    assert.equal(body.apiVersion, 1);
    assert.deepEqual(
      body.builtin.map((b) => [b.name, b.displayName]),
      [
        ["camera", "Camera"],
        ["security", "Security"],
        ["appliance-cloud", "Appliance cloud"],
      ],
    );
    assert.deepEqual(body.packages, []);
    const entry = body.bridges.find((b) => b.bridgeId === bridge.id);
    assert.equal(entry?.serverMode, false);
    assert.equal(entry?.note, null);
    for (const name of ["camera", "security", "appliance-cloud"]) {
      const info = await until(name, (p) => p.state === "running");
      assert.equal(info.builtin, true);
      assert.equal(info.enabled, true);
      assert.equal(info.devices.length, 0);
      assert.match(info.status ?? "", /not configured/);
      // Running, but waiting for its settings: the API says so, so no UI shows it as simply "Running".
      assert.equal(info.needsSettings, true, name);
      assert.equal(info.displayName, body.builtin.find((b) => b.name === name)?.displayName);
    }
  });

  it("refuses bad input with a clear 4xx and changes nothing", async () => {
    const cases: [Promise<{ status: number; body: unknown }>, number, RegExp][] = [
      [call("POST", "/api/plugins/install", { packageName: "../etc/passwd" }), 400, /is not a package name/],
      [call("POST", "/api/plugins/install", { packageName: "git+https://example.com/x.git" }), 400, /is not a package name/],
      [call("POST", "/api/plugins/install", {}), 400, /packageName/],
      [call("POST", "/api/plugins/install", { packageName: "security" }), 400, /name of a built-in plugin/],
      [call("POST", "/api/plugins/install-local", { path: "relative/folder" }), 400, /not an absolute folder path/],
      [call("POST", "/api/plugins/install-local", { path: join(work, "nowhere") }), 400, /is not a folder/],
      [call("POST", "/api/plugins/uninstall", { packageName: "never-installed" }), 404, /not installed/],
      [upload(new TextEncoder().encode("hello"), "application/json"), 415, /application\/octet-stream/],
      [upload(new Uint8Array(0)), 400, /empty/],
      [upload(new TextEncoder().encode("not a tarball")), 400, /not an npm package archive/],
      [upload(new Uint8Array(UPLOAD_LIMIT + 1)), 413, /larger than/],
      [call("POST", `/api/plugins/nobridge/security/enable`), 404, /nobridge/],
      [call("POST", `/api/plugins/${bridge.id}/no-such-plugin/enable`), 404, /Plugin not found: no-such-plugin/],
      [call("POST", `/api/plugins/${bridge.id}/security/config`, { config: "all of it" }), 400, /config/],
      [call("POST", `/api/plugins/${bridge.id}/security/config`, { config: { exitDelaySeconds: -5 } }), 400, /at least 0/],
    ];
    for (const [pending, status, message] of cases) {
      const { status: got, body } = await pending;
      assert.equal(got, status, JSON.stringify(body));
      assert.match((body as { error: string }).error, message);
    }
    const body = await list();
    assert.deepEqual(body.packages, []);
    assert.equal((await pluginOn("security"))?.config, null, "a refused config is not saved");
    assert.equal(await exists(join(dataDir, "plugin-packages.json")), false);
  });

  it("installs the example plugin from a .tgz, shows its devices on the controller and reports controller writes", async () => {
    const archive = await pack(EXAMPLE_PLUGIN_DIR);
    const uploaded = await upload(archive);
    assert.equal(uploaded.status, 201, JSON.stringify(uploaded.body));
    const pkg = uploaded.body.package as PluginsList["packages"][number];
    assert.equal(pkg.name, EXAMPLE);
    assert.equal(pkg.source.type, "upload");
    assert.equal(uploaded.body.restartRequired, false);
    assert.equal((await pluginOn(EXAMPLE))?.enabled, false, "installed packages start disabled on each bridge");
    // Isolated from the hub's own node_modules, under the data dir.
    assert.ok(await exists(join(dataDir, "plugin-packages", "node_modules", EXAMPLE, "package.json")));

    const enabled = await call("POST", `/api/plugins/${bridge.id}/${EXAMPLE}/enable`);
    assert.equal(enabled.status, 200, JSON.stringify(enabled.body));
    const info = await until(EXAMPLE, (p) => p.state === "running" && p.devices.length === 3);
    const switchEp = endpointOf(info, "switch");
    const fanEp = endpointOf(info, "fan");
    const parts = await eventually(async () => {
      const partsList = await controller.partsList(nodeId, 1);
      return partsList.includes(switchEp) && partsList.includes(fanEp) ? partsList : undefined;
    });
    assert.ok(parts.includes(endpointOf(info, "temperature")));
    assert.ok((await controller.deviceTypes(nodeId, switchEp)).includes(0x010a));
    assert.equal(await controller.read(nodeId, endpointOf(info, "temperature"), "temperatureMeasurement", "measuredValue"), 2150);

    await controller.invoke(nodeId, switchEp, "onOff", "on");
    await logged("onAttributeWrite switch onOff.onOff = true");
    await controller.write(nodeId, fanEp, "fanControl", "percentSetting", 50);
    await logged("onAttributeWrite fan fanControl.percentSetting = 50");
    await eventually(async () => (await controller.read(nodeId, fanEp, "fanControl", "percentCurrent")) === 50);
    const storage = JSON.parse(await readFile(join(dataDir, "plugins", bridge.id, EXAMPLE, "storage.json"), "utf8"));
    assert.deepEqual(storage.lastWrite, { deviceId: "fan", clusterId: "fanControl", attribute: "percentSetting", value: 50 });
  });

  it("applies a saved configuration without a bridge restart, and serves the config schema", async () => {
    const schema = await call<{ schema: { properties: Record<string, unknown> } }>(
      "GET",
      `/api/plugins/${bridge.id}/${EXAMPLE}/config-schema`,
    );
    assert.equal(schema.status, 200);
    assert.ok("temperature" in schema.body.schema.properties);
    const saved = await call<{ applied: boolean; plugin: SlotInfo }>("POST", `/api/plugins/${bridge.id}/${EXAMPLE}/config`, {
      config: { temperature: 19 },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.applied, true);
    assert.deepEqual(saved.body.plugin.config, { temperature: 19 });
    const info = await until(EXAMPLE, (p) => p.state === "running");
    assert.equal(await controller.read(nodeId, endpointOf(info, "temperature"), "temperatureMeasurement", "measuredValue"), 1900);
    assert.equal((await call<BridgeRecord>("GET", `/api/matter/bridges/${bridge.id}`)).body.status, "running");
  });

  it("keeps plugin endpoint numbers across a bridge restart", async () => {
    const before = numbers(await until(EXAMPLE, (p) => p.state === "running"));
    assert.equal((await call("POST", `/api/matter/bridges/${bridge.id}/actions/restart`)).status, 200);
    const after = await until(EXAMPLE, (p) => p.state === "running" && p.devices.length === 3, 20_000);
    assert.deepEqual(numbers(after), before);
  });

  it("installs by package name from the registry; a plugin API version mismatch warns and still loads", async () => {
    const dir = await writePluginFolder(work, "registry-plugin", REGISTRY_PLUGIN, { hubPluginApiVersion: 2 });
    registry.publish(await pack(dir));
    const installed = await call<{ package: PluginsList["packages"][number] }>("POST", "/api/plugins/install", {
      packageName: "registry-plugin",
    });
    assert.equal(installed.status, 201, JSON.stringify(installed.body));
    assert.deepEqual(installed.body.package.source, { type: "registry", spec: "registry-plugin" });
    await logged("registry-plugin targets plugin API version 2, this hub implements 1; loading it anyway");
    const listed = (await list()).packages.find((p) => p.name === "registry-plugin");
    assert.equal(listed?.apiVersionMismatch, true);
    assert.equal(listed?.hubPluginApiVersion, 2);
    assert.equal(listed?.status, "installed");

    assert.equal((await call("POST", `/api/plugins/${bridge.id}/registry-plugin/enable`)).status, 200);
    const info = await until("registry-plugin", (p) => p.state === "running" && p.devices.length === 1);
    const door = endpointOf(info, "door");
    await eventually(async () => (await controller.partsList(nodeId, 1)).includes(door));
    assert.ok((await controller.deviceTypes(nodeId, door)).includes(0x0015));
  });

  it("refuses a plugin that bundles its own matter.js, whatever the way in", async () => {
    const byDependency = await writePluginFolder(work, "bundling-plugin", "export default class {}", {
      dependencies: { "@matter/main": "^0.17.0" },
    });
    const refused = await call<{ error: string }>("POST", "/api/plugins/install-local", { path: byDependency });
    assert.equal(refused.status, 400);
    assert.match(refused.body.error, /bundling-plugin bundles its own matter\.js \(@matter\/main in its package\.json/);
    assert.match(refused.body.error, /register devices by deviceType and cluster data/);

    const byFolder = await writePluginFolder(work, "vendoring-plugin", "export default class {}");
    await mkdir(join(byFolder, "node_modules", "@project-chip", "matter.js"), { recursive: true });
    await writeFile(join(byFolder, "node_modules", "@project-chip", "matter.js", "package.json"), "{}");
    const vendored = await call<{ error: string }>("POST", "/api/plugins/install-local", { path: byFolder });
    assert.equal(vendored.status, 400);
    assert.match(vendored.body.error, /vendoring-plugin bundles its own matter\.js \(@project-chip\/matter\.js in node_modules/);

    const published = await writePluginFolder(work, "published-bundler", "export default class {}", {
      dependencies: { "@matter/nodejs": "0.17.0" },
    });
    registry.publish(await pack(published));
    const fromRegistry = await call<{ error: string }>("POST", "/api/plugins/install", { packageName: "published-bundler" });
    assert.equal(fromRegistry.status, 400);
    assert.match(fromRegistry.body.error, /published-bundler bundles its own matter\.js \(@matter\/nodejs/);
    assert.equal(registry.requests.get("/@matter/nodejs"), undefined, "refused before npm fetched matter.js");

    const names = (await list()).packages.map((p) => p.name);
    assert.ok(!names.some((name) => /bundl|vendoring/.test(name)), names.join());
  });

  it("maps HA domains through plugin mappings: user override first, then the last plugin, never a domain the hub handles", async () => {
    const person = async () => (await devicesOf(call, bridge.id)).get("person.alex");
    assert.match((await person())?.skipped ?? "", /person/);
    const first = await writePluginFolder(work, "mapper-one", mapper("mapper-one", "occupancy_sensor"));
    const second = await writePluginFolder(work, "mapper-two", mapper("mapper-two", "contact_sensor"));
    for (const dir of [first, second])
      assert.equal((await call("POST", "/api/plugins/install-local", { path: dir })).status, 201);

    assert.equal((await call("POST", `/api/plugins/${bridge.id}/mapper-one/enable`)).status, 200);
    await eventually(async () => (await person())?.deviceType === "occupancy_sensor");
    await logged("plugin mapper-one maps domain switch, which the hub handles itself: mapping ignored");
    assert.equal((await devicesOf(call, bridge.id)).get("switch.garden_pump")?.deviceType, "on_off_plugin_unit");

    await until("mapper-one", (p) => p.state === "running");
    assert.equal((await call("POST", `/api/plugins/${bridge.id}/mapper-two/enable`)).status, 200);
    await eventually(async () => (await person())?.deviceType === "contact_sensor");
    await logged("domain person: plugin mapper-two's mapping (contact_sensor) replaces plugin mapper-one's (occupancy_sensor)");
    const entry = (await list()).bridges.find((b) => b.bridgeId === bridge.id);
    assert.deepEqual(entry?.domainMappings, [{ domain: "person", matterDeviceType: "contact_sensor", plugin: "mapper-two" }]);
    const mapped = await person();
    assert.ok(mapped?.endpointNumber);
    assert.ok((await controller.deviceTypes(nodeId, mapped.endpointNumber)).includes(0x0015));

    // The user's override comes first.
    const override = await call("PUT", `/api/entity-mappings/${bridge.id}/person.alex`, { matterDeviceType: "occupancy_sensor" });
    assert.equal(override.status, 200, JSON.stringify(override.body));
    await eventually(async () => (await person())?.deviceType === "occupancy_sensor");
    assert.equal((await call("DELETE", `/api/entity-mappings/${bridge.id}/person.alex`)).status, 204);
    await eventually(async () => (await person())?.deviceType === "contact_sensor");

    // Without mapper-two the earlier registration is back; without both, the hub's table (unsupported).
    assert.equal((await call("POST", `/api/plugins/${bridge.id}/mapper-two/disable`)).status, 200);
    await eventually(async () => (await person())?.deviceType === "occupancy_sensor");
    assert.equal((await call("POST", `/api/plugins/${bridge.id}/mapper-one/disable`)).status, 200);
    await eventually(async () => (await person())?.skipped?.includes("person"));
  });

  it("trips the breaker on the third failure of a throwing plugin; reset re-enables it", async () => {
    const dir = await writePluginFolder(work, "throwing-plugin", THROWING_PLUGIN);
    await writeFile(join(dir, "fail"), "");
    assert.equal((await call("POST", "/api/plugins/install-local", { path: dir })).status, 201);
    assert.equal((await call("POST", `/api/plugins/${bridge.id}/throwing-plugin/enable`)).status, 200);
    const tripped = await until("throwing-plugin", (p) => p.state === "tripped");
    assert.equal(tripped.failures, 3);
    assert.equal(tripped.autoDisabled, true);
    assert.match(tripped.lastError ?? "", /onStart failed: cannot reach the imaginary device/);
    await logged("circuit breaker tripped: plugin throwing-plugin auto-disabled after 3 consecutive failures");
    const enable = await call<{ error: string }>("POST", `/api/plugins/${bridge.id}/throwing-plugin/enable`);
    assert.equal(enable.status, 409);
    assert.match(enable.body.error, /disabled by the circuit breaker.*reset it instead/);
    assert.equal((await call<BridgeRecord>("GET", `/api/matter/bridges/${bridge.id}`)).body.status, "running");

    await rm(join(dir, "fail"));
    const reset = await call<{ plugin: SlotInfo }>("POST", `/api/plugins/${bridge.id}/throwing-plugin/reset`);
    assert.equal(reset.status, 200);
    assert.equal(reset.body.plugin.autoDisabled, false);
    const recovered = await until("throwing-plugin", (p) => p.state === "running" && p.devices.length === 1);
    assert.equal(recovered.failures, 0);
    const lamp = endpointOf(recovered, "lamp");
    await eventually(async () => (await controller.partsList(nodeId, 1)).includes(lamp));
  });

  it("times a hanging onStart out without blocking the bridge", async () => {
    const dir = await writePluginFolder(work, "hanging-plugin", HANGING_PLUGIN);
    assert.equal((await call("POST", "/api/plugins/install-local", { path: dir })).status, 201);
    assert.equal((await call("POST", `/api/plugins/${bridge.id}/hanging-plugin/enable`)).status, 200);
    const failed = await until("hanging-plugin", (p) => p.failures >= 1);
    assert.match(failed.lastError ?? "", /onStart failed: did not finish within 2 s/);
    // Meanwhile the bridge serves its HA devices and the other plugins.
    const pump = (await devicesOf(call, bridge.id)).get("switch.garden_pump")?.endpointNumber;
    assert.ok(pump);
    sim.clearCalls();
    await controller.invoke(nodeId, pump, "onOff", "on");
    await sim.waitForCall((c) => c.domain === "switch" && c.service === "turn_on", 5000);
    assert.equal((await pluginOn(EXAMPLE))?.state, "running");
    await until("hanging-plugin", (p) => p.state === "tripped", 30_000);
  });

  it("disables a plugin: its devices leave at once and the choice survives a bridge restart", async () => {
    const info = await until(EXAMPLE, (p) => p.state === "running");
    const switchEp = endpointOf(info, "switch");
    const disabled = await call<{ plugin: SlotInfo }>("POST", `/api/plugins/${bridge.id}/${EXAMPLE}/disable`);
    assert.equal(disabled.status, 200);
    assert.equal(disabled.body.plugin.devices.length, 0);
    assert.equal(disabled.body.plugin.state, "disabled");
    await eventually(async () => !(await controller.partsList(nodeId, 1)).includes(switchEp));
    assert.equal((await call("POST", `/api/matter/bridges/${bridge.id}/actions/restart`)).status, 200);
    await until("throwing-plugin", (p) => p.state === "running", 20_000);
    const after = await pluginOn(EXAMPLE);
    assert.equal(after?.enabled, false);
    assert.equal(after?.devices.length, 0);
  });

  it("restarts the hub: enablement, breaker, configuration, storage and endpoint numbers are kept", async () => {
    const door = numbers(await until("registry-plugin", (p) => p.state === "running"));
    const storagePath = join(dataDir, "plugins", bridge.id, "registry-plugin", "storage.json");
    const startsBefore = JSON.parse(await readFile(storagePath, "utf8")).starts as number;
    await restartHub();
    assert.equal((await until("hanging-plugin", (p) => p.state === "tripped")).autoDisabled, true, "a trip outlives restarts");
    assert.equal((await pluginOn(EXAMPLE))?.enabled, false, "disabled stays disabled");
    assert.deepEqual(numbers(await until("registry-plugin", (p) => p.state === "running" && p.devices.length === 1)), door);
    assert.equal(JSON.parse(await readFile(storagePath, "utf8")).starts, startsBefore + 1, "storage is kept across restarts");

    assert.equal((await call("POST", `/api/plugins/${bridge.id}/${EXAMPLE}/enable`)).status, 200);
    const info = await until(EXAMPLE, (p) => p.state === "running" && p.devices.length === 3);
    // The saved configuration is applied at start, the switch state restored from the plugin's storage.
    assert.equal(await controller.read(nodeId, endpointOf(info, "temperature"), "temperatureMeasurement", "measuredValue"), 1900);
    assert.equal(await controller.read(nodeId, endpointOf(info, "switch"), "onOff", "onOff"), true);
    assert.deepEqual((await pluginOn(EXAMPLE))?.config, { temperature: 19 });
  });

  it("reinstalls every package from its recorded source when the plugin folder is lost", async () => {
    const example = numbers(await until(EXAMPLE, (p) => p.state === "running"));
    await hub.stop();
    // A recreated container: the plugin folder and npm's cache are gone, the data dir's records are not.
    await rm(join(dataDir, "plugin-packages"), { recursive: true, force: true });
    await rm(join(work, "npm-cache"), { recursive: true, force: true });
    registry.offline = true;
    await startHub();
    await waitForStatus(call, bridge.id, "running");
    // The uploaded archive and the linked folders come back although the registry is out of reach.
    await eventually(async () => (await list()).packages.find((p) => p.name === EXAMPLE)?.status === "installed", 30_000);
    await logged(`plugin ${EXAMPLE} is missing: reinstalling it`);
    assert.deepEqual(numbers(await until(EXAMPLE, (p) => p.state === "running" && p.devices.length === 3, 20_000)), example);
    await until("throwing-plugin", (p) => p.state === "running");
    const lost = await eventually(async () => {
      const pkg = (await list()).packages.find((p) => p.name === "registry-plugin");
      return pkg?.status === "unavailable" ? pkg : undefined;
    }, 30_000);
    assert.match(lost.error ?? "", /^The npm registry answered with an error \(503\) for registry-plugin/);
    await until("registry-plugin", (p) => p.state !== "running" && /not available/.test(p.lastError ?? ""));

    // Once the registry answers again, installing it again brings it back (reset clears its failures).
    registry.offline = false;
    assert.equal((await call("POST", "/api/plugins/install", { packageName: "registry-plugin" })).status, 201);
    assert.equal((await list()).packages.find((p) => p.name === "registry-plugin")?.status, "installed");
    assert.equal((await call("POST", `/api/plugins/${bridge.id}/registry-plugin/reset`)).status, 200);
    await until("registry-plugin", (p) => p.state === "running" && p.devices.length === 1);
  });

  it("keeps plugin storage per bridge and plugin", async () => {
    const second = await call<BridgeRecord>("POST", "/api/matter/bridges", {
      name: "Second bridge",
      port: await freeUdpPort(),
      filter: { include: [{ type: "entity_id", value: "switch.garden_pump" }] },
    });
    assert.equal(second.status, 201);
    await waitForStatus(call, second.body.id, "running");
    assert.equal((await pluginOn(EXAMPLE, second.body.id))?.enabled, false, "enablement is per bridge");
    assert.equal((await call("POST", `/api/plugins/${second.body.id}/registry-plugin/enable`)).status, 200);
    await until("registry-plugin", (p) => p.state === "running", 10_000, second.body.id);
    const storage = (id: string) => readFile(join(dataDir, "plugins", id, "registry-plugin", "storage.json"), "utf8");
    assert.equal(JSON.parse(await storage(second.body.id)).starts, 1);
    assert.ok(JSON.parse(await storage(bridge.id)).starts >= 3);
    // Deleting a bridge deletes what its plugins kept.
    assert.equal((await call("DELETE", `/api/matter/bridges/${second.body.id}`)).status, 204);
    assert.equal(await exists(join(dataDir, "plugins", second.body.id)), false);
    assert.equal(
      (await list()).bridges.some((b) => b.bridgeId === second.body.id),
      false,
    );
  });

  it("hosts no plugins on a Server Mode bridge, and says so", async () => {
    const created = await call<BridgeRecord>("POST", "/api/matter/bridges", {
      name: "Server bridge",
      port: await freeUdpPort(),
      serverMode: true,
      filter: { include: [{ type: "entity_id", value: "vacuum.roborock_s8" }] },
    });
    assert.equal(created.status, 201);
    await waitForStatus(call, created.body.id, "running");
    const entry = (await list()).bridges.find((b) => b.bridgeId === created.body.id);
    assert.equal(entry?.serverMode, true);
    assert.match(entry?.note ?? "", /Server Mode: it hosts no plugins, built-in ones included/);
    assert.deepEqual(entry?.domainMappings, []);
    assert.ok(entry?.plugins.every((p) => p.state !== "running" && p.devices.length === 0));
    for (const [method, path, body] of [
      ["POST", "security/enable", undefined],
      ["POST", "appliance-cloud/config", { config: {} }],
      ["GET", "security/config-schema", undefined],
    ] as const) {
      const refused = await call<{ error: string }>(method, `/api/plugins/${created.body.id}/${path}`, body);
      assert.equal(refused.status, 409, path);
      assert.match(refused.body.error, /runs in Server Mode and hosts no plugins/);
    }
    const devices = [...(await devicesOf(call, created.body.id)).values()] as DeviceRow[];
    assert.deepEqual(
      devices.map((d) => d.entityId),
      ["vacuum.roborock_s8"],
    );
    assert.equal((await call("DELETE", `/api/matter/bridges/${created.body.id}`)).status, 204);
  });

  it("uninstalls a package: it leaves every bridge, its files and the package list", async () => {
    const info = await until("throwing-plugin", (p) => p.state === "running");
    const lamp = endpointOf(info, "lamp");
    const removed = await call("POST", "/api/plugins/uninstall", { packageName: "throwing-plugin" });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.equal(await pluginOn("throwing-plugin"), undefined);
    await eventually(async () => !(await controller.partsList(nodeId, 1)).includes(lamp));
    assert.equal(await exists(join(dataDir, "plugins", bridge.id, "throwing-plugin")), false);
    assert.ok(!(await list()).packages.some((p) => p.name === "throwing-plugin"));
    assert.equal((await call("POST", "/api/plugins/uninstall", { packageName: "throwing-plugin" })).status, 404);

    const upload = (await list()).packages.find((p) => p.name === EXAMPLE)?.source.file;
    assert.ok(upload);
    assert.equal((await call("POST", "/api/plugins/uninstall", { packageName: EXAMPLE })).status, 200);
    assert.equal(await exists(join(dataDir, "plugin-uploads", upload)), false);
    assert.equal(await exists(join(dataDir, "plugin-packages", "node_modules", EXAMPLE)), false);
  });

  it("restores a backup on a fresh hub: packages come back from their recorded sources, an upload must be sent again", async () => {
    assert.equal((await upload(await pack(EXAMPLE_PLUGIN_DIR))).status, 201);
    const download = await hub.app.request("/api/backup/download");
    assert.equal(download.status, 200);
    const zip = new Uint8Array(await download.arrayBuffer());
    const starts = JSON.parse(await readFile(join(dataDir, "plugins", bridge.id, "registry-plugin", "storage.json"), "utf8"));
    await hub.stop();

    dataDir = join(work, "fresh");
    await startHub();
    const form = (options?: unknown) => {
      const body = new FormData();
      body.append("file", new Blob([zip]), "backup.zip");
      if (options) body.append("options", JSON.stringify(options));
      return body;
    };
    // Linked local folders come back only with explicit consent (docs/backup.md "Plugins").
    const refused = await hub.app.request("/api/backup/restore", { method: "POST", body: form() });
    assert.equal(refused.status, 400);
    assert.match(((await refused.json()) as { error: string }).error, /mapper-one is linked from the local folder/);
    const restored = await hub.app.request("/api/backup/restore", {
      method: "POST",
      body: form({ allowLocalPlugins: true }),
    });
    assert.equal(restored.status, 200, await restored.clone().text());
    await hub.stop();
    await startHub();
    await waitForStatus(call, bridge.id, "running");
    const packages = await eventually(async () => {
      const body = await list();
      return body.packages.every((p) => p.status !== "reinstalling") ? body.packages : undefined;
    }, 30_000);
    assert.deepEqual(
      packages.map((p) => [p.name, p.source.type, p.status]),
      [
        ["hanging-plugin", "local", "installed"],
        ["hub-plugin-example", "upload", "unavailable"],
        ["mapper-one", "local", "installed"],
        ["mapper-two", "local", "installed"],
        ["registry-plugin", "registry", "installed"],
      ],
    );
    assert.match(packages[1]?.error ?? "", /the uploaded archive hub-plugin-example-1\.0\.0\.tgz is gone/);
    // Enablement and storage came with the backup: the registry plugin runs on the restored bridge and counts on.
    await until("registry-plugin", (p) => p.state === "running" && p.devices.length === 1, 20_000);
    const storage = join(dataDir, "plugins", bridge.id, "registry-plugin", "storage.json");
    assert.equal(JSON.parse(await readFile(storage, "utf8")).starts, starts.starts + 1);
    // Uploading the archive again makes the example available.
    assert.equal((await upload(await pack(EXAMPLE_PLUGIN_DIR))).status, 201);
    assert.equal((await list()).packages.find((p) => p.name === EXAMPLE)?.status, "installed");
  });
});
