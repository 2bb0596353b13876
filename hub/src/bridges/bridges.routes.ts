import { Hono } from "hono";
import * as v from "valibot";
import { badRequest } from "../../../lib/http-error.ts";
import { validate } from "../../../lib/validate.ts";
import { KNOWN_ASSISTANTS } from "../home-assistant/assistants.ts";
import { entityRecord, viewEntity } from "../home-assistant/entity-view.ts";
import type { HomeAssistantModel } from "../home-assistant/ha-model.ts";
import { BRIDGE_ACTIONS, type BridgeAction } from "./bridge-actions.ts";
import { type BridgeConfig, CreateBridgeSchema, DEFAULT_MATTER_PORT, UpdateBridgeSchema } from "./bridge-config.ts";
import type { BridgeService } from "./bridge-service.ts";
import { checkControllers, countedFromPlan } from "./controller-checks.ts";
import { CONTROLLER_LIMITS } from "./controller-limits.ts";
import { inspectEndpoint, inspectEntity } from "./device-inspection.ts";
import { BridgeFilterSchema, compileFilter, FILTER_RULE_TYPES, leftOutCounts } from "./filter.ts";
import { confirmSplit, previewSplit, SplitConfirmSchema, SplitRequestSchema } from "./split-actions.ts";

const PrioritiesSchema = v.object({
  updates: v.pipe(
    v.array(v.object({ id: v.string(), priority: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10_000)) })),
    v.minLength(1, "updates must not be empty"),
  ),
});
const PreviewSchema = v.object({
  filter: BridgeFilterSchema,
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(5000)), 500),
  /** The bridge being edited: its entity mappings and plugin devices count (absent for a new bridge). */
  bridgeId: v.optional(v.string()),
  /** The form's settings that change what is exposed and what the controllers say; default: the bridge's own. */
  controllers: CreateBridgeSchema.entries.controllers,
  leaveOutUnsupported: CreateBridgeSchema.entries.leaveOutUnsupported,
  composeDevices: v.optional(v.boolean()),
  serverMode: v.optional(v.boolean()),
  port: v.optional(v.pipe(v.number(), v.integer())),
});

/** `/api/matter`: bridges, their actions and devices, and the filter helpers. */
export function bridgeRoutes(bridges: BridgeService, model: HomeAssistantModel): Hono {
  const app = new Hono();

  app.get("/bridges", (c) => c.json(bridges.list()));
  app.post("/bridges", validate("json", CreateBridgeSchema), async (c) => c.json(await bridges.create(c.req.valid("json")), 201));
  app.put("/bridges/priorities", validate("json", PrioritiesSchema), async (c) =>
    c.json(await bridges.setPriorities(c.req.valid("json").updates)),
  );
  app.post("/bridges/actions/:action{start-all|stop-all|restart-all}", async (c) => {
    const action = c.req.param("action").replace("-all", "") as "start" | "stop" | "restart";
    return c.json(await bridges.actAll(action));
  });
  app.get("/bridges/:bridgeId", (c) => c.json(bridges.record(c.req.param("bridgeId"))));
  app.put("/bridges/:bridgeId", validate("json", UpdateBridgeSchema), async (c) =>
    c.json(await bridges.update(c.req.param("bridgeId"), c.req.valid("json"))),
  );
  app.delete("/bridges/:bridgeId", async (c) => {
    await bridges.delete(c.req.param("bridgeId"));
    return c.body(null, 204);
  });
  app.post("/bridges/:bridgeId/actions/:action", async (c) => {
    const action = c.req.param("action") as BridgeAction;
    bridges.record(c.req.param("bridgeId")); // 404 first for an unknown bridge
    if (!BRIDGE_ACTIONS.includes(action))
      throw badRequest(`Unknown action "${action}"; expected one of ${BRIDGE_ACTIONS.join(", ")}`);
    return c.json(await bridges.act(c.req.param("bridgeId"), action));
  });
  app.post("/bridges/:bridgeId/clone", async (c) => c.json(await bridges.clone(c.req.param("bridgeId")), 201));
  app.get("/bridges/:bridgeId/devices", (c) => {
    const bridgeId = c.req.param("bridgeId");
    const devices = bridges.devices(bridgeId);
    // Plugin devices have no HA entity: listed apart, so `devices` stays one row per entity.
    return c.json({ bridgeId, devices, total: devices.length, pluginDevices: bridges.pluginDevices(bridgeId) });
  });
  // The device inspector (docs/inspector.md): an endpoint as controllers read it, by entity or by endpoint number.
  app.get("/bridges/:bridgeId/devices/:entityId/inspect", (c) =>
    c.json(inspectEntity(bridges, c.req.param("bridgeId"), c.req.param("entityId"))),
  );
  app.get("/bridges/:bridgeId/endpoints/:endpointNumber", (c) =>
    c.json(inspectEndpoint(bridges, c.req.param("bridgeId"), c.req.param("endpointNumber"))),
  );
  app.get("/next-port", async (c) => c.json({ port: await bridges.nextPort() }));

  app.post("/filter-preview", validate("json", PreviewSchema), (c) => {
    const body = c.req.valid("json");
    const { filter, limit } = body;
    const compiled = compileFilter(filter, model);
    const views = [...model.entityIds()].sort().map((id) => viewEntity(model, id)!);
    const matching = views.filter((view) => compiled.matches(view));
    // What the bridge would expose with this filter, counted as controllers count (after composition).
    const existing = body.bridgeId ? bridges.config(body.bridgeId) : undefined;
    const config: BridgeConfig = {
      ...(existing ?? { id: "", name: "", passcode: 0, discriminator: 0, createdAt: "", updatedAt: "", priority: 100 }),
      filter,
      port: body.port ?? existing?.port ?? DEFAULT_MATTER_PORT,
      serverMode: body.serverMode ?? existing?.serverMode ?? false,
      composeDevices: body.composeDevices ?? existing?.composeDevices ?? true,
      controllers: body.controllers ?? existing?.controllers ?? [],
      leaveOutUnsupported: body.leaveOutUnsupported ?? existing?.leaveOutUnsupported ?? false,
      autoStart: existing?.autoStart ?? true,
    };
    const plan = bridges.plan(config);
    const counted = countedFromPlan(plan);
    const plugins = body.bridgeId ? bridges.pluginDevices(body.bridgeId) : [];
    const devices = [...counted, ...plugins.map((p) => ({ entityId: null, deviceType: p.deviceType, carries: [] }))];
    return c.json({
      total: matching.length,
      entities: matching.slice(0, limit).map(entityRecord),
      truncated: matching.length > limit,
      /** Entities the rules select that Home Assistant hides or disables, left out of `total`. */
      leftOut: leftOutCounts(filter, model, views),
      /** Matter devices the bridge would expose (entities and plugin devices), composed parts and skipped entities. */
      devices: {
        exposed: devices.length,
        composed: plan.filter((row) => row.composedInto !== null).length,
        skipped: plan.filter((row) => row.skipped !== null).length,
      },
      warnings: checkControllers(config, devices),
    });
  });

  /** The table of controller limits and known gaps (controller-limits.data.json), for the controller picker. */
  app.get("/controllers", (c) => c.json(Object.entries(CONTROLLER_LIMITS.controllers).map(([id, entry]) => ({ id, ...entry }))));
  app.post("/bridges/:bridgeId/split/preview", validate("json", SplitRequestSchema), (c) =>
    c.json(previewSplit(bridges, model, c.req.param("bridgeId"), c.req.valid("json"))),
  );
  app.post("/bridges/:bridgeId/split", validate("json", SplitConfirmSchema), async (c) =>
    c.json(await confirmSplit(bridges, model, c.req.param("bridgeId"), c.req.valid("json")), 201),
  );

  app.get("/labels", (c) =>
    c.json(
      [...model.labels.values()]
        .map((l) => ({ id: l.label_id, name: l.name, color: l.color, icon: l.icon }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    ),
  );
  app.get("/areas", (c) =>
    c.json(
      [...model.areas.values()]
        .map((a) => ({ id: a.area_id, name: a.name, floorId: a.floor_id, icon: a.icon }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    ),
  );
  app.get("/filter-values", (c) => {
    const collect = (pick: (id: string) => string | null | undefined) => {
      const counts = new Map<string, number>();
      for (const id of model.entityIds()) {
        const value = pick(id);
        if (value) counts.set(value, (counts.get(value) ?? 0) + 1);
      }
      return [...counts].map(([value, count]) => ({ value, count })).sort((a, b) => a.value.localeCompare(b.value));
    };
    const view = (id: string) => viewEntity(model, id)!;
    return c.json({
      ruleTypes: FILTER_RULE_TYPES,
      domains: collect((id) => id.slice(0, id.indexOf("."))),
      platforms: collect((id) => model.entities.get(id)?.platform),
      entityCategories: collect((id) => model.entities.get(id)?.entity_category ?? "none"),
      deviceClasses: collect((id) => {
        const e = view(id);
        return (
          (e.state?.attributes.device_class as string | undefined) ??
          e.registry?.device_class ??
          e.registry?.original_device_class
        );
      }),
      labels: [...model.labels.values()].map((l) => ({ value: l.label_id, name: l.name })),
      areas: [...model.areas.values()].map((a) => ({ value: a.area_id, name: a.name })),
      devices: [...model.devices.values()].map((d) => ({ value: d.id, name: d.name_by_user ?? d.name })),
      assistants: assistantValues(model),
    });
  });

  return app;
}

/**
 * The `exposed_to` values: HA's known assistants (always, with their names), then any other assistant an entity
 * is exposed to, each with the number of entities exposed to it.
 */
function assistantValues(model: HomeAssistantModel) {
  const counts = new Map<string, number>(KNOWN_ASSISTANTS.map((assistant) => [assistant.id, 0]));
  for (const id of model.entityIds())
    for (const assistant of model.exposedTo(id)) counts.set(assistant, (counts.get(assistant) ?? 0) + 1);
  const names = new Map<string, string>(KNOWN_ASSISTANTS.map((assistant) => [assistant.id, assistant.name]));
  return [...counts].map(([value, count]) => ({ value, name: names.get(value) ?? value, count }));
}
