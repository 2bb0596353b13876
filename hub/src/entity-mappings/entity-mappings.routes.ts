import { Hono } from "hono";
import { badRequest, notFound } from "../../../lib/http-error.ts";
import { validate } from "../../../lib/validate.ts";
import type { BridgeService } from "../bridges/bridge-service.ts";
import type { DeviceTypeKey } from "../matter/model/contract.ts";
import { EntityMappingSchema, type EntityMappingStore } from "./entity-mapping-store.ts";

const ENTITY_ID = /^[a-z0-9_]+\.[a-z0-9_]+$/;

/**
 * `GET /api/entity-mappings/:bridgeId/:entityId/device-types`: the Matter device types a mapping may choose for the
 * entity (its domain, capabilities and the bridge's plugin mappings decide: BridgeRuntime.allowedDeviceTypes, the
 * same check PUT makes); `null` while Home Assistant has no state for it (no type can be set then).
 */
export interface DeviceTypeChoices {
  bridgeId: string;
  entityId: string;
  allowed: readonly DeviceTypeKey[] | null;
}

/** `/api/entity-mappings`: per-bridge overrides; changes apply live and keep the endpoint's identity. */
export function entityMappingRoutes(mappings: EntityMappingStore, bridges: BridgeService): Hono {
  const app = new Hono();
  const bridgeId = (id: string) => {
    bridges.record(id); // 404 for an unknown bridge
    return id;
  };
  const entityId = (id: string) => {
    if (!ENTITY_ID.test(id)) throw badRequest(`Not an entity id: ${id}`);
    return id;
  };

  app.get("/:bridgeId", (c) => {
    const id = bridgeId(c.req.param("bridgeId"));
    return c.json({ bridgeId: id, mappings: mappings.list(id) });
  });

  /** The device types a mapping of this entity may choose (what PUT accepts), so an editor offers only those. */
  app.get("/:bridgeId/:entityId/device-types", (c) => {
    const id = bridgeId(c.req.param("bridgeId"));
    const entity = entityId(c.req.param("entityId"));
    const answer: DeviceTypeChoices = { bridgeId: id, entityId: entity, allowed: bridges.allowedDeviceTypes(id, entity) ?? null };
    return c.json(answer);
  });

  app.put("/:bridgeId/:entityId", validate("json", EntityMappingSchema), async (c) => {
    const id = bridgeId(c.req.param("bridgeId"));
    const entity = entityId(c.req.param("entityId"));
    const input = c.req.valid("json");
    if (input.matterDeviceType) checkDeviceType(bridges, id, entity, input.matterDeviceType);
    const mapping = await mappings.put(id, entity, input);
    return c.json(mapping);
  });

  app.delete("/:bridgeId/:entityId", async (c) => {
    const id = bridgeId(c.req.param("bridgeId"));
    const deleted = await mappings.delete(id, c.req.param("entityId"));
    if (!deleted) throw notFound(`No mapping for ${c.req.param("entityId")} on bridge ${id}`);
    return c.body(null, 204);
  });

  app.delete("/:bridgeId", async (c) => {
    const id = bridgeId(c.req.param("bridgeId"));
    const deleted = await mappings.deleteAll(id);
    return c.json({ bridgeId: id, deleted });
  });

  return app;
}

/**
 * A device type must fit the entity (a switch cannot become a door lock: the endpoint would accept commands HA cannot
 * carry out). Checked against HA's current state, so an entity HA does not know cannot get one yet.
 */
function checkDeviceType(bridges: BridgeService, bridgeId: string, entityId: string, deviceType: DeviceTypeKey): void {
  const allowed = bridges.allowedDeviceTypes(bridgeId, entityId);
  if (allowed === undefined) {
    throw badRequest(`Home Assistant has no state for ${entityId}: its device type cannot be checked, so it cannot be set`);
  }
  if (allowed.includes(deviceType)) return;
  throw badRequest(
    allowed.length === 0
      ? `matterDeviceType ${deviceType} does not fit ${entityId}: this entity cannot be exposed as any Matter device type`
      : `matterDeviceType ${deviceType} does not fit ${entityId}; allowed: ${allowed.join(", ")}`,
  );
}
