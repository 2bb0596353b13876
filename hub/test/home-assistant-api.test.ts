import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createDemoHome } from "../../simulators/home-assistant/demo-home.ts";
import { type HaSimulator, startHaSimulator } from "../../simulators/home-assistant/index.ts";
import { createTestHub, type TestHub } from "./support/test-context.ts";

interface EntityList {
  entities: { entity_id: string; name: string; domain: string; area_id: string | null; disabled: boolean }[];
  total: number;
  limit: number;
  offset: number;
}

describe("/api/home-assistant", () => {
  let sim: HaSimulator;
  let hub: TestHub;
  let app: TestHub["app"];
  const get = async <T = Record<string, unknown>>(path: string) => {
    const response = await app.request(`/api/home-assistant${path}`);
    return { status: response.status, body: (await response.json()) as T };
  };

  before(async () => {
    sim = await startHaSimulator({ token: "t", home: createDemoHome() });
    hub = await createTestHub({ ha: { url: sim.url, token: "t" }, start: true });
    app = hub.app;
    await hub.homeAssistant.whenLoaded();
  });
  after(async () => {
    await hub.stop();
    await sim.close();
  });

  it("lists entities with the default page of 100 and a total", async () => {
    const { status, body } = await get<EntityList>("/entities");
    assert.equal(status, 200);
    assert.equal(body.limit, 100);
    assert.equal(body.offset, 0);
    assert.equal(body.total, hub.homeAssistant.model.entityIds().size);
    assert.equal(body.entities.length, Math.min(100, body.total));
    const ids = body.entities.map((e) => e.entity_id);
    assert.deepEqual(ids, [...ids].sort());
  });

  it("pages with limit and offset, and filters by domain and search (entity_id and friendly name)", async () => {
    const all = (await get<EntityList>("/entities?limit=500")).body;
    const page = (await get<EntityList>("/entities?limit=5&offset=5")).body;
    assert.deepEqual(
      page.entities.map((e) => e.entity_id),
      all.entities.slice(5, 10).map((e) => e.entity_id),
    );
    const lights = (await get<EntityList>("/entities?domain=light&limit=500")).body;
    assert.ok(lights.total > 0 && lights.entities.every((e) => e.domain === "light"));
    const sample = lights.entities.find((e) => e.name.includes(" "))!;
    const byName = (await get<EntityList>(`/entities?search=${encodeURIComponent(sample.name.toUpperCase())}`)).body;
    assert.ok(
      byName.entities.some((e) => e.entity_id === sample.entity_id),
      "search matches the friendly name, case-insensitively",
    );
    const byId = (await get<EntityList>(`/entities?search=${sample.entity_id.split(".")[1]}`)).body;
    assert.ok(byId.entities.some((e) => e.entity_id === sample.entity_id));
  });

  it("refuses out-of-range query values with 400 {error}", async () => {
    for (const query of ["limit=0", "limit=501", "limit=abc", "limit=1.5", "offset=-1", "offset=x"]) {
      const { status, body } = await get<{ error: string }>(`/entities?${query}`);
      assert.equal(status, 400, query);
      assert.equal(typeof body.error, "string");
      assert.deepEqual(Object.keys(body), ["error"]);
    }
    assert.equal((await get("/devices?limit=0")).status, 400);
  });

  it("returns one entity, or 404 {error} for an unknown id", async () => {
    const some = [...hub.homeAssistant.model.states.keys()][0]!;
    const { status, body } = await get<{ entity_id: string; state: string }>(`/entities/${some}`);
    assert.equal(status, 200);
    assert.equal(body.entity_id, some);
    const missing = await get<{ error: string }>("/entities/light.does_not_exist");
    assert.equal(missing.status, 404);
    assert.match(missing.body.error, /light\.does_not_exist/);
  });

  it("lists devices with their entities, and a device with all its entity records", async () => {
    const list = await get<{ devices: { id: string; entity_ids: string[] }[]; total: number }>("/devices?limit=500");
    assert.equal(list.body.total, hub.homeAssistant.model.devices.size);
    const withEntities = list.body.devices.find((d) => d.entity_ids.length > 1)!;
    const one = await get<{ id: string; entities: { entity_id: string }[] }>(`/devices/${withEntities.id}`);
    assert.equal(one.status, 200);
    assert.deepEqual(
      one.body.entities.map((e) => e.entity_id).sort(),
      [...withEntities.entity_ids].sort().filter((id) => hub.homeAssistant.model.entityIds().has(id)),
    );
    const missing = await get<{ error: string }>("/devices/no-such-device");
    assert.equal(missing.status, 404);
    assert.deepEqual(Object.keys(missing.body), ["error"]);
    assert.match(missing.body.error, /no-such-device/);
  });

  it("filters devices by area and by a search over name, manufacturer and model", async () => {
    const model = hub.homeAssistant.model;
    const inArea = [...model.devices.values()].find((d) => d.area_id)!;
    const byArea = await get<{ devices: { id: string; area_id: string }[]; total: number }>(
      `/devices?area=${inArea.area_id}&limit=500`,
    );
    const expected = [...model.devices.values()].filter((d) => d.area_id === inArea.area_id).map((d) => d.id);
    assert.deepEqual(byArea.body.devices.map((d) => d.id).sort(), expected.sort());
    assert.ok(byArea.body.total < model.devices.size);

    const name = (inArea.name_by_user ?? inArea.name)!;
    const bySearch = await get<{ devices: { id: string }[] }>(`/devices?search=${encodeURIComponent(name.toUpperCase())}`);
    assert.ok(
      bySearch.body.devices.some((d) => d.id === inArea.id),
      "search is case-insensitive",
    );
    const none = await get<{ devices: unknown[]; total: number }>("/devices?search=zz-no-such-device-zz");
    assert.deepEqual([none.body.devices, none.body.total], [[], 0]);
    assert.equal((await get("/devices?limit=501")).status, 400);
  });

  it("counts entities per domain", async () => {
    const { body } = await get<{ domains: { domain: string; count: number }[] }>("/domains");
    const total = body.domains.reduce((sum, d) => sum + d.count, 0);
    assert.equal(total, hub.homeAssistant.model.entityIds().size);
    assert.ok(body.domains.find((d) => d.domain === "light")!.count > 0);
  });

  it("refreshes the registries on request, recovering from a missed registry event", async () => {
    const model = hub.homeAssistant.model;
    const total = model.entityIds().size;
    const registered = [...model.entities.values()].find((e) => e.entity_id.startsWith("light."))!;
    // As if the hub had missed HA's entity_registry_updated events: one entry gone, another stale.
    model.removeEntity(registered.entity_id);
    const other = [...model.entities.values()].find((e) => e.entity_id.startsWith("switch."))!;
    model.upsertEntity({ ...other, name: "Stale name" });
    assert.equal(model.entities.has(registered.entity_id), false);

    const response = await app.request("/api/home-assistant/refresh", { method: "POST" });
    assert.equal(response.status, 200);
    const body = (await response.json()) as { refreshed: boolean; entities: number };
    assert.equal(body.refreshed, true);
    assert.equal(body.entities, total);
    assert.deepEqual(model.entities.get(registered.entity_id), registered, "the missing entry is back");
    assert.equal(model.entities.get(other.entity_id)?.name, other.name, "the stale entry is current again");
  });

  it("finds the button entities of the same device", async () => {
    const model = hub.homeAssistant.model;
    const button = [...model.entities.values()].find((e) => e.entity_id.startsWith("button.") && e.device_id && !e.disabled_by);
    assert.ok(button?.device_id, "the demo home has a device with a button");
    const sibling = [...model.entityIdsOfDevice(button.device_id)].find((id) => id !== button.entity_id)!;
    const { status, body } = await get<{ buttons: { entity_id: string }[] }>(`/related-buttons/${sibling}`);
    assert.equal(status, 200);
    assert.ok(body.buttons.some((b) => b.entity_id === button.entity_id));
    const lonely = [...model.states.keys()].find((id) => !model.entities.get(id)?.device_id)!;
    assert.deepEqual((await get<{ buttons: unknown[] }>(`/related-buttons/${lonely}`)).body.buttons, []);
    assert.equal((await get("/related-buttons/sensor.nope")).status, 404);
  });
});
