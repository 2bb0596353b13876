import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import type { HaSimulator } from "../../simulators/home-assistant/index.ts";
import { type api, type BridgeRecord, devicesOf, startBridgeWorld, waitForStatus } from "./support/bridge-fixture.ts";
import { freeUdpPort } from "./support/matter-fixtures.ts";
import { eventually, type TestHub } from "./support/test-context.ts";

describe("filter helpers and entity mappings", { timeout: 120_000 }, () => {
  let sim: HaSimulator;
  let hub: TestHub;
  let call: ReturnType<typeof api>;
  let bridge: BridgeRecord;

  before(async () => {
    assertNetworkIsolated();
    ({ sim, hub, call } = await startBridgeWorld());
    const created = await call<BridgeRecord>("POST", "/api/matter/bridges", {
      name: "Mapped",
      port: await freeUdpPort(),
      filter: { include: [{ type: "domain", value: "switch" }] },
    });
    bridge = await waitForStatus(call, created.body.id, "running");
  });
  after(async () => {
    await hub?.stop();
    await sim?.close();
  });

  it("previews a filter with exactly the bridge's logic", async () => {
    const preview = await call<{ total: number; entities: { entity_id: string }[] }>("POST", "/api/matter/filter-preview", {
      filter: { include: [{ type: "domain", value: "switch" }] },
    });
    assert.equal(preview.status, 200);
    const exposed = [...(await devicesOf(call, bridge.id)).values()].filter((d) => d.deviceType).map((d) => d.entityId);
    assert.deepEqual(preview.body.entities.map((e) => e.entity_id).sort(), exposed.sort());
    const byArea = await call<{ entities: { area_id: string }[] }>("POST", "/api/matter/filter-preview", {
      filter: { include: [{ type: "area", value: "Garden" }] },
    });
    assert.ok(byArea.body.entities.length > 0 && byArea.body.entities.every((e) => e.area_id === "garden"));
    assert.equal(
      (await call("POST", "/api/matter/filter-preview", { filter: { include: [{ type: "nope", value: "x" }] } })).status,
      400,
    );
  });

  it("lists labels, areas and filter values from Home Assistant", async () => {
    const labels = await call<{ id: string; name: string }[]>("GET", "/api/matter/labels");
    assert.equal(labels.body.length, hub.homeAssistant.model.labels.size);
    const areas = await call<{ id: string; name: string }[]>("GET", "/api/matter/areas");
    assert.ok(areas.body.some((a) => a.id === "garden" && a.name === "Garden"));
    const values = await call<{ domains: { value: string; count: number }[]; ruleTypes: string[] }>(
      "GET",
      "/api/matter/filter-values",
    );
    assert.ok(values.body.ruleTypes.includes("label"));
    assert.equal(
      values.body.domains.find((d) => d.value === "light")?.count,
      [...hub.homeAssistant.model.entityIds()].filter((id) => id.startsWith("light.")).length,
    );
  });

  it("creates, lists and deletes mappings; a disabled mapping removes the device live, deleting it restores the same endpoint", async () => {
    const devices = await devicesOf(call, bridge.id);
    const number = devices.get("switch.garden_pump")?.endpointNumber;
    assert.ok(number);
    const bad = await call("PUT", `/api/entity-mappings/${bridge.id}/switch.garden_pump`, { matterDeviceType: "toaster" });
    assert.equal(bad.status, 400);
    // A real device type that cannot fit a switch: 400 naming the ones that can, and nothing changes.
    const misfit = await call<{ error: string }>("PUT", `/api/entity-mappings/${bridge.id}/switch.garden_pump`, {
      matterDeviceType: "door_lock",
      customName: "Front door",
    });
    assert.equal(misfit.status, 400);
    assert.deepEqual(Object.keys(misfit.body), ["error"]);
    assert.match(misfit.body.error, /door_lock does not fit switch\.garden_pump; allowed: on_off_plugin_unit, on_off_light$/);
    assert.deepEqual((await call<{ mappings: unknown[] }>("GET", `/api/entity-mappings/${bridge.id}`)).body.mappings, []);
    const unchanged = (await devicesOf(call, bridge.id)).get("switch.garden_pump");
    assert.equal(unchanged?.deviceType, "on_off_plugin_unit");
    assert.equal(unchanged?.endpointNumber, number);
    const unknown = await call<{ error: string }>("PUT", `/api/entity-mappings/${bridge.id}/switch.not_in_ha`, {
      matterDeviceType: "on_off_light",
    });
    assert.equal(unknown.status, 400, "an entity HA does not know cannot be checked");
    assert.match(unknown.body.error, /no state for switch\.not_in_ha/);
    const put = await call<{ disabled: boolean }>("PUT", `/api/entity-mappings/${bridge.id}/switch.garden_pump`, {
      disabled: true,
    });
    assert.equal(put.status, 200);
    assert.equal(put.body.disabled, true);
    await eventually(
      async () => (await devicesOf(call, bridge.id)).get("switch.garden_pump")?.skipped === "disabled in the entity mapping",
    );
    const listed = await call<{ mappings: { entityId: string }[] }>("GET", `/api/entity-mappings/${bridge.id}`);
    assert.deepEqual(
      listed.body.mappings.map((m) => m.entityId),
      ["switch.garden_pump"],
    );
    const deleted = await hub.app.request(`/api/entity-mappings/${bridge.id}/switch.garden_pump`, { method: "DELETE" });
    assert.equal(deleted.status, 204);
    await eventually(async () => (await devicesOf(call, bridge.id)).get("switch.garden_pump")?.endpointNumber === number);
    assert.equal((await call("DELETE", `/api/entity-mappings/${bridge.id}/switch.garden_pump`)).status, 404);
    await call("PUT", `/api/entity-mappings/${bridge.id}/switch.garage_heater`, { customName: "Heater" });
    const cleared = await call<{ deleted: number }>("DELETE", `/api/entity-mappings/${bridge.id}`);
    assert.equal(cleared.body.deleted, 1);
    assert.ok(sim);
  });

  it("keeps every endpoint number through a Home Assistant restart", async () => {
    const before = await devicesOf(call, bridge.id);
    await sim.restart({ notRunningMs: 300 });
    await eventually(() => !hub.homeAssistant.client.status.connected, 5000);
    await eventually(() => hub.homeAssistant.client.status.connected, 20_000, 100);
    await eventually(async () => (await devicesOf(call, bridge.id)).size === before.size, 10_000, 100);
    const after = await devicesOf(call, bridge.id);
    for (const [entityId, device] of before) assert.equal(after.get(entityId)?.endpointNumber, device.endpointNumber, entityId);
  });

  it("applies a changed filter without restarting the bridge", async () => {
    const before = (await call<BridgeRecord>("GET", `/api/matter/bridges/${bridge.id}`)).body;
    const updated = await call<BridgeRecord>("PUT", `/api/matter/bridges/${bridge.id}`, {
      filter: {
        include: [
          { type: "domain", value: "switch" },
          { type: "domain", value: "input_boolean" },
        ],
      },
    });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.status, "running");
    await eventually(async () => [...(await devicesOf(call, bridge.id)).keys()].some((id) => id.startsWith("input_boolean.")));
    assert.ok((await call<BridgeRecord>("GET", `/api/matter/bridges/${bridge.id}`)).body.deviceCount > before.deviceCount);
  });
});
