import * as v from "valibot";
import { CONTROLLER_IDS } from "./controller-limits.ts";
import { BridgeFilterSchema } from "./filter.ts";

/** Matter's limits for the strings a bridge exposes (BasicInformation: NodeLabel/ProductName ≤ 32). */
export const MAX_BRIDGE_NAME = 32;
export const MIN_MATTER_PORT = 1024;
export const DEFAULT_MATTER_PORT = 5540;

const name = v.pipe(
  v.string("name must be a string"),
  v.trim(),
  v.nonEmpty("name must not be empty"),
  v.maxLength(MAX_BRIDGE_NAME, `name must be at most ${MAX_BRIDGE_NAME} characters (Matter's node label limit)`),
);
const port = v.pipe(
  v.number("port must be a number"),
  v.integer("port must be an integer"),
  v.minValue(MIN_MATTER_PORT, `port must be between ${MIN_MATTER_PORT} and 65535`),
  v.maxValue(65535, `port must be between ${MIN_MATTER_PORT} and 65535`),
);
const priority = v.pipe(v.number(), v.integer("priority must be an integer"), v.minValue(0), v.maxValue(10_000));
const controllers = v.pipe(
  v.array(v.picklist(CONTROLLER_IDS, `controllers must be among ${CONTROLLER_IDS.join(", ")}`)),
  v.check((list) => new Set(list).size === list.length, "controllers repeat"),
);

/** What a client may send to create a bridge (hub spec: name, port, filter; plus our extra fields). */
export const CreateBridgeSchema = v.object({
  name,
  port,
  filter: v.optional(BridgeFilterSchema, { include: [], exclude: [], includeHidden: false }),
  priority: v.optional(priority, 100),
  /** Expose the device(s) as a standalone Matter node without an aggregator (no plugins on such a bridge). */
  serverMode: v.optional(v.boolean(), false),
  /**
   * Compose devices: an entity's endpoint carries the battery, power and energy sensors of its HA device instead of
   * leaving them out (docs/decisions.md "Composed devices"). On by default; off exposes every entity on its own.
   */
  composeDevices: v.optional(v.boolean(), true),
  /**
   * The controllers this bridge is meant for (controller-limits.data.json ids): the filter preview, the bridge record
   * and the health view warn when the bridge exceeds one's limits or holds device types it is known not to render
   * (docs/decisions.md "Controller limits"). Absent or empty: no checks.
   */
  controllers: v.optional(controllers),
  /**
   * Leave out the device types a chosen controller is known not to render or to break on (each listed as skipped with
   * the reason). Absent: false.
   */
  leaveOutUnsupported: v.optional(v.boolean()),
  /** Start with the hub (and after a restart); set false by `stop`, true by `start`. */
  autoStart: v.optional(v.boolean(), true),
});
export type CreateBridge = v.InferOutput<typeof CreateBridgeSchema>;

/** An update may change any of the create fields; omitted fields keep their value. */
export const UpdateBridgeSchema = v.partial(CreateBridgeSchema);
export type UpdateBridge = v.InferOutput<typeof UpdateBridgeSchema>;

/** A stored bridge: its configuration and its Matter pairing parameters. */
export interface BridgeConfig extends CreateBridge {
  id: string;
  /** Setup PIN and discriminator, generated once and renewed by factory reset. */
  passcode: number;
  discriminator: number;
  createdAt: string;
  updatedAt: string;
}

/** The creatable fields of a stored bridge (a clone's starting point), copied so the two never share a filter. */
export function createFieldsOf(config: BridgeConfig): CreateBridge {
  const { name, port, filter, priority, serverMode, composeDevices, controllers, leaveOutUnsupported, autoStart } = config;
  return {
    name,
    port,
    filter: structuredClone(filter),
    priority,
    serverMode,
    composeDevices,
    controllers: [...(controllers ?? [])],
    leaveOutUnsupported: leaveOutUnsupported ?? false,
    autoStart,
  };
}
