import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import { createDemoHome } from "../../simulators/home-assistant/demo-home.ts";
import { type HaSimulator, startHaSimulator } from "../../simulators/home-assistant/index.ts";
import type { LeftOut } from "../src/bridges/filter.ts";
import type { DeviceTypeChoices } from "../src/entity-mappings/entity-mappings.routes.ts";
import { freeUdpPort } from "./support/matter-fixtures.ts";
import { createTestHub, type TestHub } from "./support/test-context.ts";

// What the filter builder and the mapping editor need to explain themselves (issue 21 item 5), over HTTP: how many
// entities the rules select that Home Assistant hides or disables, and which device types fit an entity.

describe("filter preview left-out counts and mapping device types (HTTP)", { timeout: 60_000 }, () => {
  let sim: HaSimulator;
  let hub: TestHub;

  const call = async <T>(method: string, path: string, body?: unknown) => {
    const response = await hub.app.request(path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
  };
  type Preview = { total: number; entities: { entity_id: string }[]; leftOut: LeftOut };
  const preview = async (filter: Record<string, unknown>) => {
    const answer = await call<Preview>("POST", "/api/matter/filter-preview", { filter, limit: 500 });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body;
  };

  before(async () => {
    assertNetworkIsolated();
    sim = await startHaSimulator({ token: "t", home: createDemoHome(), motionMs: 0 });
    hub = await createTestHub({ ha: { url: sim.url, token: "t" }, start: true });
    await hub.homeAssistant.whenLoaded();
  });
  after(async () => {
    await hub?.stop();
    await sim?.close();
  });

  it("counts the hidden and disabled entities the rules select, and the hidden ones come in when asked for", async () => {
    const lights = { include: [{ type: "domain", value: "light" }], exclude: [] };
    const without = await preview({ ...lights, includeHidden: false });
    const ids = without.entities.map((e) => e.entity_id);
    assert.ok(!ids.includes("light.bathroom_mirror_group"), "the hidden light group is left out");
    assert.ok(!ids.includes("light.desk_strip_segment_1"), "a disabled light is left out");
    assert.ok(without.leftOut.hidden >= 1, JSON.stringify(without.leftOut));
    assert.ok(without.leftOut.disabled >= 1, JSON.stringify(without.leftOut));

    const withHidden = await preview({ ...lights, includeHidden: true });
    assert.equal(withHidden.total, without.total + without.leftOut.hidden, "exactly the hidden ones come in");
    assert.ok(withHidden.entities.some((e) => e.entity_id === "light.bathroom_mirror_group"));
    assert.deepEqual(withHidden.leftOut, { hidden: 0, disabled: without.leftOut.disabled });

    // Excluded is excluded: a hidden entity an exclude rule takes out is not "left out because hidden".
    const excluded = await preview({
      ...lights,
      exclude: [{ type: "entity_id", value: "light.bathroom_mirror_group" }],
      includeHidden: false,
    });
    assert.equal(excluded.leftOut.hidden, without.leftOut.hidden - 1);
    // Rules that select nothing hidden or disabled say so.
    const pump = await preview({ include: [{ type: "entity_id", value: "switch.garden_pump" }] });
    assert.deepEqual([pump.total, pump.leftOut], [1, { hidden: 0, disabled: 0 }]);
  });

  it("lists the device types a mapping may choose, exactly those PUT accepts", async () => {
    const created = await call<{ id: string }>("POST", "/api/matter/bridges", {
      name: "Mappings",
      port: await freeUdpPort(),
      filter: { include: [{ type: "entity_id", value: "switch.garden_pump" }] },
      autoStart: false,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const bridge = created.body.id;
    const pump = await call<DeviceTypeChoices>("GET", `/api/entity-mappings/${bridge}/switch.garden_pump/device-types`);
    assert.equal(pump.status, 200);
    assert.deepEqual(pump.body, {
      bridgeId: bridge,
      entityId: "switch.garden_pump",
      allowed: ["on_off_plugin_unit", "on_off_light"],
    });
    for (const type of pump.body.allowed ?? []) {
      const put = await call("PUT", `/api/entity-mappings/${bridge}/switch.garden_pump`, { matterDeviceType: type });
      assert.equal(put.status, 200, `${type} is offered, so it is accepted`);
    }
    const refused = await call<{ error: string }>("PUT", `/api/entity-mappings/${bridge}/switch.garden_pump`, {
      matterDeviceType: "door_lock",
    });
    assert.equal(refused.status, 400, "not offered, refused");

    const unknown = await call<DeviceTypeChoices>("GET", `/api/entity-mappings/${bridge}/switch.not_in_home/device-types`);
    assert.deepEqual([unknown.status, unknown.body.allowed], [200, null], "no state in HA: no type can be chosen");
    assert.equal((await call("GET", `/api/entity-mappings/${bridge}/not-an-id/device-types`)).status, 400);
    assert.equal((await call("GET", "/api/entity-mappings/nope/switch.garden_pump/device-types")).status, 404);
  });
});
