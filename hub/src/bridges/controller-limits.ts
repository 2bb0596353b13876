/**
 * The table of controller limits and known gaps (controller-limits.data.json), checked when the hub starts: a
 * correction to the data that breaks its shape stops the hub with the path of the offending field, never a bridge
 * later. See docs/decisions.md "Controller limits".
 */
import * as v from "valibot";
import { describeIssues } from "../../../lib/validate.ts";
import raw from "./controller-limits.data.json" with { type: "json" };

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const KEY = /^[a-z][a-z0-9_]*$/;
const text = v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(600));

/** Where a fact comes from: a URL or a document, and the day someone last checked it said so. */
const SourceSchema = v.pipe(
  v.object({
    title: text,
    url: v.optional(v.pipe(v.string(), v.url("url must be a URL"), v.startsWith("https://", "url must be https"))),
    document: v.optional(text),
    checkedOn: v.pipe(v.string(), v.regex(ISO_DATE, "checkedOn must be a date (YYYY-MM-DD)")),
  }),
  v.check((source) => Boolean(source.url || source.document), "a source needs a url or a document"),
);
const SourcesSchema = v.pipe(v.array(SourceSchema), v.minLength(1, "every entry needs at least one source"));

/** Composed roles a gap may depend on (hub/src/matter/model/contract.ts COMPANION_ROLES). */
const CARRIED_ROLES = ["battery", "battery_low", "battery_charging", "power", "energy", "voltage", "current"] as const;

const DeviceTypeGapSchema = v.object({
  keys: v.pipe(v.array(v.pipe(v.string(), v.regex(KEY, "device type keys are snake_case"))), v.minLength(1)),
  effect: v.picklist(["not_rendered", "breaks_bridge"]),
  /** Only when the bridge exposes other devices too (a vacuum alone on its bridge is fine). */
  whenShared: v.optional(v.boolean(), false),
  /** Only when the endpoint carries one of these composed roles. */
  carrying: v.optional(v.array(v.picklist(CARRIED_ROLES)), []),
  reason: text,
  sources: SourcesSchema,
});

const ControllerSchema = v.object({
  name: v.pipe(text, v.maxLength(40)),
  maxDevices: v.pipe(
    v.object({
      value: v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1))),
      basis: v.picklist(["documented", "reported", "none_known"]),
      summary: text,
      sources: SourcesSchema,
    }),
    v.check((limit) => (limit.value === null) === (limit.basis === "none_known"), "a null value goes with basis none_known"),
  ),
  /** The only port this controller pairs on. */
  port: v.optional(v.object({ value: v.pipe(v.number(), v.integer()), summary: text, sources: SourcesSchema })),
  deviceTypes: v.array(DeviceTypeGapSchema),
  notes: v.optional(v.array(v.object({ text, sources: SourcesSchema })), []),
});

export const ControllerLimitsSchema = v.object({
  $comment: v.optional(v.string()),
  controllers: v.pipe(
    v.record(v.pipe(v.string(), v.regex(KEY, "controller ids are snake_case")), ControllerSchema),
    v.check((all) => Object.keys(all).length > 0, "no controllers"),
  ),
});
export type ControllerLimits = v.InferOutput<typeof ControllerLimitsSchema>;
export type ControllerEntry = ControllerLimits["controllers"][string];
export type DeviceTypeGap = v.InferOutput<typeof DeviceTypeGapSchema>;
export type LimitSource = v.InferOutput<typeof SourceSchema>;

/** Checks a table (the data file, or a test's); throws with the offending fields named. */
export function parseControllerLimits(data: unknown): ControllerLimits {
  const result = v.safeParse(ControllerLimitsSchema, data);
  if (!result.success) throw new Error(`controller-limits.data.json is invalid: ${describeIssues(result.issues)}`);
  return result.output;
}

/** The table this hub runs with. */
export const CONTROLLER_LIMITS: ControllerLimits = parseControllerLimits(raw);

/** The controller ids a bridge may name, in the data file's order. */
export const CONTROLLER_IDS: readonly string[] = Object.keys(CONTROLLER_LIMITS.controllers);
