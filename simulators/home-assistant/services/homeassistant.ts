/**
 * The generic `homeassistant.turn_on` / `turn_off` / `toggle` (homeassistant/components/homeassistant): the target
 * is split by domain and each domain's own service is called with the same context; entities of domains without
 * that service are logged and skipped. `update_entity` re-writes the current state (a `state_reported`).
 */
import { ENTITY_SERVICE_FIELDS, type Fields, required, v } from "../protocol/schema.ts";
import { resolveTarget } from "./target.ts";
import type { DomainCall, ServiceRuntime, ServiceSpec } from "./types.ts";

const TARGET_KEYS = Object.keys(ENTITY_SERVICE_FIELDS);

function turnService(service: string, has: (domain: string, service: string) => boolean): ServiceSpec {
  return {
    domain: "homeassistant",
    service,
    fields: ENTITY_SERVICE_FIELDS as Fields,
    allowExtra: true,
    async handle(call: DomainCall, rt: ServiceRuntime) {
      const target = resolveTarget(call.data, rt.registries);
      const all = [...new Set([...target.referenced, ...target.indirect])].sort();
      if (all.length === 0) {
        rt.log?.error(`The service homeassistant.${service} cannot be called without a target`);
        return null;
      }
      const byDomain = new Map<string, string[]>();
      for (const entityId of all) {
        const domain = entityId.slice(0, entityId.indexOf("."));
        byDomain.set(domain, [...(byDomain.get(domain) ?? []), entityId]);
      }
      const data = Object.fromEntries(Object.entries(call.data).filter(([key]) => !TARGET_KEYS.includes(key)));
      const unsupported: string[] = [];
      const calls: Promise<unknown>[] = [];
      for (const [domain, entityIds] of byDomain) {
        if (domain === "homeassistant") {
          rt.log?.warn(`Called service homeassistant.${service} with invalid entities ${entityIds.join(", ")}`);
          continue;
        }
        if (!has(domain, service)) {
          unsupported.push(...entityIds.filter((id) => target.referenced.has(id)));
          continue;
        }
        calls.push(rt.call(domain, service, { ...data, entity_id: entityIds }, call.context));
      }
      if (unsupported.length > 0) {
        rt.log?.warn(`The service homeassistant.${service} does not support entities ${unsupported.sort().join(", ")}`);
      }
      await Promise.all(calls);
      return null;
    },
  };
}

export function homeassistantServices(has: (domain: string, service: string) => boolean): ServiceSpec[] {
  return [
    turnService("turn_on", has),
    turnService("turn_off", has),
    turnService("toggle", has),
    {
      domain: "homeassistant",
      service: "update_entity",
      fields: { entity_id: required(v.entityIds()) },
      handle(call, rt) {
        const ids = Array.isArray(call.data.entity_id) ? (call.data.entity_id as string[]) : [];
        for (const entityId of ids) {
          const state = rt.states.get(entityId);
          if (state) rt.write(entityId, state.state, { ...state.attributes }, call.context);
        }
        return null;
      },
    },
  ];
}
