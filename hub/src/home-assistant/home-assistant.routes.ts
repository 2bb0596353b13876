import { Hono } from "hono";
import * as v from "valibot";
import { HttpError, notFound } from "../../../lib/http-error.ts";
import { validate } from "../../../lib/validate.ts";
import { deviceName, entityRecord, viewEntity } from "./entity-view.ts";
import type { HomeAssistantService } from "./home-assistant-service.ts";

/** `limit` 1-500 (default 100) and `offset` ≥ 0 (default 0), as integers in the query string (hub spec). */
const page = {
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, "must be an integer"),
      v.transform(Number),
      v.minValue(1, "must be at least 1"),
      v.maxValue(500, "must be at most 500"),
    ),
    "100",
  ),
  offset: v.optional(v.pipe(v.string(), v.regex(/^\d+$/, "must be a non-negative integer"), v.transform(Number)), "0"),
};
const text = v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, "must be at most 200 characters")));

const EntityQuery = v.object({ domain: text, search: text, ...page });
const DeviceQuery = v.object({ search: text, area: text, ...page });

const BUTTON_DOMAINS = new Set(["button", "input_button"]);

export function homeAssistantRoutes(ha: HomeAssistantService): Hono {
  const app = new Hono();
  const model = ha.model;

  app.get("/stats", (c) => {
    const status = ha.client.status;
    const ids = model.entityIds();
    const domains = new Set([...ids].map((id) => id.slice(0, id.indexOf("."))));
    let unavailable = 0;
    for (const state of model.states.values()) if (state.state === "unavailable") unavailable++;
    return c.json({
      connected: status.connected,
      connection: {
        state: status.state,
        haVersion: status.haVersion ?? null,
        error: status.fatal ?? null,
        lastConnectedAt: status.lastConnectedAt ? new Date(status.lastConnectedAt).toISOString() : null,
        reconnects: status.reconnects,
      },
      entities: { total: ids.size, withState: model.states.size, registered: model.entities.size, unavailable },
      devices: model.devices.size,
      areas: model.areas.size,
      labels: model.labels.size,
      domains: domains.size,
      lastUpdated: model.lastUpdated ? new Date(model.lastUpdated).toISOString() : null,
    });
  });

  app.get("/entities", validate("query", EntityQuery), (c) => {
    const { domain, search, limit, offset } = c.req.valid("query");
    const needle = search?.toLowerCase();
    const matches = [...model.entityIds()]
      .filter((id) => !domain || id.startsWith(`${domain}.`))
      .sort()
      .map((id) => viewEntity(model, id))
      .filter((view) => view && (!needle || view.entityId.includes(needle) || view.name.toLowerCase().includes(needle)))
      .map((view) => entityRecord(view!));
    return c.json({ entities: matches.slice(offset, offset + limit), total: matches.length, limit, offset });
  });

  app.get("/entities/:entityId", (c) => {
    const view = viewEntity(model, c.req.param("entityId"));
    if (!view) throw notFound(`Entity not found: ${c.req.param("entityId")}`);
    return c.json(entityRecord(view));
  });

  const deviceRecord = (id: string) => {
    const device = model.devices.get(id)!;
    return {
      id,
      name: deviceName(device),
      manufacturer: device.manufacturer,
      model: device.model,
      sw_version: device.sw_version,
      hw_version: device.hw_version,
      serial_number: device.serial_number ?? null,
      area_id: device.area_id,
      // HA before 2024.4 lists devices without `labels` (its label registry exists, device labels do not).
      labels: device.labels ?? [],
      disabled: Boolean(device.disabled_by),
      via_device_id: device.via_device_id,
      entity_ids: [...model.entityIdsOfDevice(id)].sort(),
    };
  };

  app.get("/devices", validate("query", DeviceQuery), (c) => {
    const { search, area, limit, offset } = c.req.valid("query");
    const needle = search?.toLowerCase();
    const matches = [...model.devices.keys()]
      .map(deviceRecord)
      .filter((d) => !area || d.area_id === area)
      .filter((d) => !needle || `${d.name ?? ""} ${d.manufacturer ?? ""} ${d.model ?? ""}`.toLowerCase().includes(needle))
      .sort((a, b) => (a.name ?? a.id).localeCompare(b.name ?? b.id));
    return c.json({ devices: matches.slice(offset, offset + limit), total: matches.length, limit, offset });
  });

  app.get("/devices/:deviceId", (c) => {
    const id = c.req.param("deviceId");
    if (!model.devices.has(id)) throw notFound(`Device not found: ${id}`);
    const record = deviceRecord(id);
    const entities = record.entity_ids.map((entityId) => viewEntity(model, entityId)).filter((view) => view !== undefined);
    return c.json({ ...record, entities: entities.map(entityRecord) });
  });

  app.get("/domains", (c) => {
    const counts = new Map<string, number>();
    for (const id of model.entityIds()) {
      const domain = id.slice(0, id.indexOf("."));
      counts.set(domain, (counts.get(domain) ?? 0) + 1);
    }
    const domains = [...counts].map(([domain, count]) => ({ domain, count })).sort((a, b) => a.domain.localeCompare(b.domain));
    return c.json({ domains });
  });

  app.post("/refresh", async (c) => {
    try {
      await ha.refresh();
    } catch (error) {
      throw new HttpError(503, `Cannot refresh: ${(error as Error).message}`);
    }
    return c.json({
      refreshed: true,
      entities: model.entityIds().size,
      devices: model.devices.size,
      at: new Date().toISOString(),
    });
  });

  app.get("/related-buttons/:entityId", (c) => {
    const view = viewEntity(model, c.req.param("entityId"));
    if (!view) throw notFound(`Entity not found: ${c.req.param("entityId")}`);
    const deviceId = view.registry?.device_id;
    const buttons = deviceId
      ? [...model.entityIdsOfDevice(deviceId)]
          .filter((id) => id !== view.entityId && BUTTON_DOMAINS.has(id.slice(0, id.indexOf("."))))
          .sort()
          .map((id) => viewEntity(model, id))
          .filter((b) => b !== undefined && !b.registry?.disabled_by)
          .map((b) => entityRecord(b!))
      : [];
    return c.json({ entityId: view.entityId, deviceId: deviceId ?? null, buttons });
  });

  return app;
}
