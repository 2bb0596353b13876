import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { memoryLogger } from "../../../lib/testing/fixtures.ts";
import { homeAssistantRoutes } from "./home-assistant.routes.ts";
import { HomeAssistantService } from "./home-assistant-service.ts";
import type { DeviceRegistryEntry } from "./types.ts";

describe("/api/home-assistant device records", () => {
  it("give a device from an HA that sends no device labels (2024.3 and older) an empty label list", async () => {
    // Never started: the routes read the model, which is filled here as a 2024.3 core's registry list fills it.
    const ha = new HomeAssistantService({ url: "http://127.0.0.1:9", token: "unused", log: memoryLogger().log });
    const device = {
      id: "d1",
      name: "Demo light",
      name_by_user: null,
      manufacturer: "Home Assistant",
      model: null,
      sw_version: null,
      hw_version: null,
      area_id: null,
      disabled_by: null,
      entry_type: null,
      via_device_id: null,
      config_entries: [],
    } as unknown as DeviceRegistryEntry;
    ha.model.setRegistries({ entities: [], devices: [device], areas: [], labels: [] });
    const app = homeAssistantRoutes(ha);
    const one = await app.request("/devices/d1");
    assert.equal(one.status, 200);
    assert.deepEqual(((await one.json()) as { labels: unknown }).labels, []);
    const list = (await (await app.request("/devices")).json()) as { devices: { labels: unknown }[] };
    assert.deepEqual(list.devices[0]?.labels, []);
  });
});
