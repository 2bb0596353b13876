import type { HassContext } from "../../../hub/src/home-assistant/types.ts";
import type { Logger } from "../../../lib/logger.ts";
import type { Registries } from "../core/registry.ts";
import type { State, StateMachine } from "../core/state-machine.ts";
import { type Clock, isoFromEpoch } from "../core/time.ts";
import type { Fields } from "../protocol/schema.ts";

/** What service handlers act through: the simulated integrations' side of Home Assistant. */
export interface ServiceRuntime {
  readonly states: StateMachine;
  readonly registries: Registries;
  readonly clock: Clock;
  /** How long simulated motion takes (covers, valves, locks, vacuums returning, scripts running); 0 = instant. */
  readonly motionMs: number;
  readonly log: Logger | undefined;
  /** The entity writes its new state with the call's context, as HA entities do after handling a call. */
  write(entityId: string, state: string, attributes: Record<string, unknown>, context: HassContext): void;
  /** Runs `fn` after `ms`, replacing the entity's pending motion; pending work is dropped when the simulator closes. */
  schedule(entityId: string, ms: number, fn: () => void): void;
  /** Cancels the entity's pending motion; true when there was one. */
  cancel(entityId: string): boolean;
  /** Device-side memory HA's state does not show while off (last brightness, last HVAC mode, motion in progress…). */
  memory(entityId: string): Record<string, unknown>;
  /** The code an entity with a `code_format` accepts. */
  codeFor(entityId: string): string;
  /** Calls another service with the same context, as `homeassistant.turn_on` does per domain. */
  call(domain: string, service: string, data: Record<string, unknown>, context: HassContext): Promise<unknown>;
  sleep(ms: number): Promise<void>;
}

export interface EntityCall {
  readonly domain: string;
  readonly service: string;
  readonly entityId: string;
  readonly state: State;
  /** Validated service data without the target keys. */
  readonly data: Record<string, unknown>;
  readonly context: HassContext;
}

export interface DomainCall {
  readonly domain: string;
  readonly service: string;
  /** Validated service data including target keys. */
  readonly data: Record<string, unknown>;
  readonly context: HassContext;
  readonly returnResponse: boolean;
}

/** One registered service, like HA's `Service` plus the entity-service registration details. */
export interface ServiceSpec {
  readonly domain: string;
  readonly service: string;
  readonly fields: Fields;
  /** `extra=vol.ALLOW_EXTRA`: keys beyond `fields` pass through (script fields, homeassistant.turn_on data). */
  readonly allowExtra?: boolean;
  /** Cross-field checks after field validation (HA's `vol.All(..., has_at_least_one_key(...))` and the like). */
  readonly validate?: (data: Record<string, unknown>) => void;
  /** `SupportsResponse`: absent = NONE. */
  readonly response?: "optional" | "only";
  /** An entity service (`async_register_entity_service`); `requiredFeatures` is HA's list of feature sets. */
  readonly entity?: {
    readonly requiredFeatures?: readonly number[];
    handle(call: EntityCall, rt: ServiceRuntime): unknown;
  };
  /** A plain domain service. */
  readonly handle?: (call: DomainCall, rt: ServiceRuntime) => unknown;
}

export type EntityHandler = (call: EntityCall, rt: ServiceRuntime) => unknown;

/** Shorthand for an entity service registration. */
export function entityService(
  domain: string,
  service: string,
  fields: Fields,
  handle: EntityHandler,
  options: {
    requiredFeatures?: readonly number[];
    validate?: (data: Record<string, unknown>) => void;
    response?: "optional" | "only";
  } = {},
): ServiceSpec {
  return {
    domain,
    service,
    fields,
    ...(options.validate ? { validate: options.validate } : {}),
    ...(options.response ? { response: options.response } : {}),
    entity: { handle, ...(options.requiredFeatures ? { requiredFeatures: options.requiredFeatures } : {}) },
  };
}

/** The entity's `supported_features` bitmask, from its state as HA computes it. */
export function featuresOf(state: State): number {
  const value = state.attributes.supported_features;
  return typeof value === "number" ? value : 0;
}

/** Writes the entity's state keeping every attribute, with `changes` applied. */
export function writeWith(
  rt: ServiceRuntime,
  call: Pick<EntityCall, "entityId" | "state" | "context">,
  state: string,
  changes: Record<string, unknown> = {},
): void {
  rt.write(call.entityId, state, { ...call.state.attributes, ...changes }, call.context);
}

/** The ISO timestamp HA stores as the state of buttons, scenes and event entities. */
export function nowIso(rt: ServiceRuntime): string {
  return isoFromEpoch(rt.clock.now());
}
