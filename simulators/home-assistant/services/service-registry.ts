/**
 * Service dispatch after HA's `ServiceRegistry.async_call` (core.py) and `entity_service_call` (helpers/service.py):
 * unknown service → ServiceNotFound; response-support checks; target merged into the data before the schema;
 * a `call_service` event; then, for entity services, explicit ids that do not exist (or belong to another
 * domain) are logged and skipped, unavailable entities are skipped, and an explicitly targeted entity lacking the
 * required features fails the whole call with ServiceNotSupported (indirectly targeted ones are skipped).
 */
import type { HassContext } from "../../../hub/src/home-assistant/types.ts";
import type { EventBus } from "../core/event-bus.ts";
import type { State } from "../core/state-machine.ts";
import { HaError, homeAssistantError, serviceValidationError } from "../protocol/errors.ts";
import { ENTITY_SERVICE_FIELDS, requireOneOf, validateMapping } from "../protocol/schema.ts";
import { resolveTarget } from "./target.ts";
import { featuresOf, type ServiceRuntime, type ServiceSpec } from "./types.ts";

export interface ServiceRequest {
  domain: string;
  service: string;
  serviceData?: Record<string, unknown> | undefined;
  target?: Record<string, unknown> | undefined;
  context: HassContext;
  returnResponse: boolean;
}

export interface ServiceRegistry {
  /** The service spec, including per-script services (`script.<object_id>`) derived from the current states. */
  find(domain: string, service: string): ServiceSpec | undefined;
  /** Resolves with the response (null unless `returnResponse`); rejects with HaError or Invalid. */
  call(request: ServiceRequest): Promise<unknown>;
  /** Every service, grouped by domain, for `get_services`. */
  all(): ServiceSpec[];
}

const TARGET_KEYS = Object.keys(ENTITY_SERVICE_FIELDS);

export function createServiceRegistry(
  specs: readonly ServiceSpec[],
  dynamic: (domain: string, service: string) => ServiceSpec | undefined,
  dynamicAll: () => ServiceSpec[],
  bus: EventBus,
  rt: ServiceRuntime,
): ServiceRegistry {
  const byKey = new Map(specs.map((spec) => [`${spec.domain}.${spec.service}`, spec]));

  const find = (domain: string, service: string) =>
    byKey.get(`${domain}.${service}`) ?? dynamic(domain.toLowerCase(), service.toLowerCase());

  async function entityServiceCall(spec: ServiceSpec, data: Record<string, unknown>, request: ServiceRequest) {
    const entity = spec.entity;
    if (!entity) return null;
    const target = resolveTarget(data, rt.registries);
    const inDomain = (state: State | undefined): state is State => state !== undefined && state.domain === spec.domain;
    const candidates = target.all
      ? rt.states.all().filter((state) => state.domain === spec.domain)
      : [...new Set([...target.referenced, ...target.indirect])].map((id) => rt.states.get(id)).filter(inDomain);
    const missing = [...target.referenced].filter((id) => !candidates.some((state) => state.entityId === id));
    if (missing.length > 0) {
      rt.log?.warn(`Referenced entities ${missing.join(", ")} are missing or not currently available`);
    }
    const selected: State[] = [];
    for (const state of candidates) {
      if (state.state === "unavailable") continue;
      const required = entity.requiredFeatures;
      const features = featuresOf(state);
      if (required && !required.some((set) => (features & set) === set)) {
        if (target.referenced.has(state.entityId)) {
          throw serviceValidationError(
            `Entity ${state.entityId} does not support action ${spec.domain}.${spec.service}.`,
            "service_not_supported",
            { domain: spec.domain, service: spec.service, entity_id: state.entityId },
          );
        }
        continue;
      }
      selected.push(state);
    }
    if (selected.length === 0) {
      if (request.returnResponse) throw homeAssistantError("Service call requested response data but did not match any entities");
      return null;
    }
    const entityData = Object.fromEntries(Object.entries(data).filter(([key]) => !TARGET_KEYS.includes(key)));
    const responses: Record<string, unknown> = {};
    for (const state of selected) {
      const current = rt.states.get(state.entityId) ?? state;
      responses[state.entityId] = await entity.handle(
        {
          domain: spec.domain,
          service: spec.service,
          entityId: state.entityId,
          state: current,
          data: entityData,
          context: request.context,
        },
        rt,
      );
    }
    return request.returnResponse ? responses : null;
  }

  return {
    find,
    all: () => [...specs, ...dynamicAll()],
    async call(request) {
      const spec = find(request.domain, request.service);
      if (!spec) {
        throw new HaError("not_found", `Service ${request.domain}.${request.service} not found.`, {
          domain: "homeassistant",
          key: "service_not_found",
          placeholders: { domain: request.domain, service: request.service },
        });
      }
      const placeholders = { return_response: "return_response=True" };
      if (request.returnResponse && !spec.response) {
        throw serviceValidationError(
          "An action which does not return responses can't be called with return_response=True.",
          "service_does_not_support_response",
          placeholders,
        );
      }
      if (!request.returnResponse && spec.response === "only") {
        throw serviceValidationError(
          "The action requires responses and must be called with return_response=True.",
          "service_lacks_response_request",
          placeholders,
        );
      }
      const raw = { ...(request.serviceData ?? {}), ...(request.target ?? {}) };
      const fields = spec.entity ? { ...ENTITY_SERVICE_FIELDS, ...spec.fields } : spec.fields;
      const data = validateMapping(fields, raw, spec.allowExtra);
      if (spec.entity) requireOneOf(data, TARGET_KEYS);
      spec.validate?.(data);
      bus.fire("call_service", { domain: spec.domain, service: spec.service, service_data: raw }, request.context);
      if (spec.entity) return entityServiceCall(spec, data, request);
      const response = await spec.handle?.(
        { domain: spec.domain, service: spec.service, data, context: request.context, returnResponse: request.returnResponse },
        rt,
      );
      return request.returnResponse ? (response ?? {}) : null;
    },
  };
}
