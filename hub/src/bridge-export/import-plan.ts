import * as v from "valibot";
import { badRequest } from "../../../lib/http-error.ts";
import { describeIssues, parseOr400 } from "../../../lib/validate.ts";
import { ExportEnvelopeSchema, ExportedBridgeSchema, type ImportedBridge } from "./export-format.ts";

/** `options` of an import: which bridges of the file to take, and whether existing ids may be replaced. */
export const ImportOptionsSchema = v.object({
  bridgeIds: v.optional(v.pipe(v.array(v.string()), v.maxLength(500))),
  overwriteExisting: v.optional(v.boolean(), false),
});
export type ImportOptions = v.InferOutput<typeof ImportOptionsSchema>;

/**
 * Why an entry is not applied. `invalid` and `port` make `POST /import` refuse the whole file; `unselected` and
 * `exists` are ordinary skips (the caller asked for them).
 */
export type SkipKind = "invalid" | "port" | "unselected" | "exists";

export interface PlanItem {
  id: string;
  name: string | null;
  port: number | null;
  mappings: number;
  action: "create" | "overwrite" | "skip";
  reasons: string[];
  skip?: SkipKind;
  /** The validated entry (absent when invalid). */
  bridge?: ImportedBridge;
}

export interface ImportPlan {
  exportedAt: string | null;
  appVersion: string | null;
  items: PlanItem[];
  /** `bridgeIds` naming no bridge of the file. */
  unknownSelection: string[];
}

/** A bridge as it is here now: what the plan needs to decide create/overwrite and find port clashes. */
export interface ExistingBridge {
  id: string;
  name: string;
  port: number;
}

/**
 * Decides, without changing anything, what an import would do with each bridge of the file. The envelope
 * (format, version, duplicate ids) must be valid as a whole (400 otherwise); a bad bridge entry only marks
 * that entry. Port rule: an applied bridge's port must be free both now and after the import (no swaps, since
 * the bridges are updated one after the other).
 */
export function planImport(data: unknown, options: ImportOptions, existing: ExistingBridge[]): ImportPlan {
  const envelope = parseOr400(ExportEnvelopeSchema, data, "import data");
  const items = envelope.bridges.map((raw, index) => checkEntry(raw, index));
  const ids = items.map((item) => item.id);
  const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
  if (duplicate !== undefined) throw badRequest(`Invalid import data: bridge id "${duplicate}" appears twice`);

  const here = new Map(existing.map((bridge) => [bridge.id, bridge]));
  for (const item of items) {
    if (item.skip) continue;
    if (options.bridgeIds && !options.bridgeIds.includes(item.id)) skip(item, "unselected", "not in bridgeIds");
    else if (here.has(item.id) && !options.overwriteExisting) {
      skip(item, "exists", `a bridge with id ${item.id} exists here (set overwriteExisting to replace it)`);
    } else item.action = here.has(item.id) ? "overwrite" : "create";
  }

  const applied = items.filter((item) => !item.skip);
  for (const item of applied) {
    const clash = existing.find((bridge) => bridge.port === item.port && bridge.id !== item.id);
    if (clash) skip(item, "port", `port ${item.port} is already used by bridge "${clash.name}" (${clash.id})`);
    const twin = applied.find((other) => other !== item && other.port === item.port);
    if (twin) skip(item, "port", `port ${item.port} is also used by imported bridge "${twin.name}" (${twin.id})`);
  }

  const fileIds = new Set(ids);
  return {
    exportedAt: envelope.exportedAt ?? null,
    appVersion: envelope.appVersion ?? null,
    items,
    unknownSelection: (options.bridgeIds ?? []).filter((id) => !fileIds.has(id)),
  };
}

/** The problems that make `POST /import` refuse the file, one line each; empty when it may be applied. */
export function planErrors(plan: ImportPlan): string[] {
  const errors = plan.unknownSelection.map((id) => `bridgeIds: no bridge "${id}" in the file`);
  for (const item of plan.items) {
    if (item.skip === "invalid" || item.skip === "port") errors.push(`bridge ${item.id}: ${item.reasons.join("; ")}`);
  }
  return errors;
}

function checkEntry(raw: unknown, index: number): PlanItem {
  const result = v.safeParse(ExportedBridgeSchema, raw);
  if (result.success) {
    const { config, mappings } = result.output;
    return {
      id: config.id,
      name: config.name,
      port: config.port,
      mappings: mappings.length,
      action: "create",
      reasons: [],
      bridge: result.output,
    };
  }
  // Name the entry as well as we can: its id when it has a usable one, else its position.
  const config = (raw as { config?: { id?: unknown; name?: unknown; port?: unknown } } | null)?.config;
  const id = typeof config?.id === "string" && config.id.length <= 64 ? config.id : `#${index + 1}`;
  return {
    id,
    name: typeof config?.name === "string" ? config.name.slice(0, 64) : null,
    port: typeof config?.port === "number" ? config.port : null,
    mappings: 0,
    action: "skip",
    reasons: [`invalid: ${describeIssues(result.issues)}`],
    skip: "invalid",
  };
}

function skip(item: PlanItem, kind: SkipKind, reason: string): void {
  item.action = "skip";
  item.skip ??= kind;
  item.reasons.push(reason);
}
