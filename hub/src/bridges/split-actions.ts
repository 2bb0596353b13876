/**
 * The split action (`POST /api/matter/bridges/:id/split/preview` and `/split`): a proposal of new bridges that each
 * fit the chosen controllers' device limit, created only when confirmed with the proposal's token. The original
 * bridge is never deleted: it is stopped (or kept running when asked), so its pairing and configuration stay.
 */
import * as v from "valibot";
import { badRequest, conflict } from "../../../lib/http-error.ts";
import { viewEntity } from "../home-assistant/entity-view.ts";
import type { HomeAssistantModel } from "../home-assistant/ha-model.ts";
import type { BridgeConfig } from "./bridge-config.ts";
import type { BridgeService } from "./bridge-service.ts";
import { planSplit, proposalToken, type SplitBy, type SplitGroup } from "./bridge-split.ts";
import { countedFromPlan } from "./controller-checks.ts";
import { CONTROLLER_IDS, CONTROLLER_LIMITS } from "./controller-limits.ts";
import type { BridgeFilter } from "./filter.ts";

export const SplitRequestSchema = v.object({
  by: v.optional(v.picklist(["area", "label"], "by must be area or label"), "area"),
  /** The controllers whose limits each new bridge must fit; default: the bridge's own. */
  controllers: v.optional(v.array(v.picklist(CONTROLLER_IDS, `controllers must be among ${CONTROLLER_IDS.join(", ")}`))),
  /** A device limit of the user's own, instead of the controllers'. */
  maxDevices: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10_000))),
});
export type SplitRequest = v.InferOutput<typeof SplitRequestSchema>;

export const SplitConfirmSchema = v.object({
  ...SplitRequestSchema.entries,
  /** The preview's token: the split is refused (409) when the proposal would now differ. */
  token: v.pipe(v.string(), v.nonEmpty("token must be the preview's token")),
  /** Leave the original bridge running next to the new ones (default: it is stopped, never deleted). */
  keepOriginalRunning: v.optional(v.boolean(), false),
});

/** Where the device limit of a proposal comes from. */
interface LimitOrigin {
  maxDevices: number;
  /** The controller with the smallest limit, or null when the request gave its own. */
  controller: { id: string; name: string; summary: string } | null;
}

function limitFor(config: BridgeConfig, request: SplitRequest): LimitOrigin {
  if (request.maxDevices !== undefined) return { maxDevices: request.maxDevices, controller: null };
  const ids = request.controllers ?? config.controllers ?? [];
  let best: LimitOrigin | undefined;
  for (const id of ids) {
    const entry = CONTROLLER_LIMITS.controllers[id];
    const value = entry?.maxDevices.value;
    if (!entry || value === null || value === undefined || (best && best.maxDevices <= value)) continue;
    best = { maxDevices: value, controller: { id, name: entry.name, summary: entry.maxDevices.summary } };
  }
  if (!best) {
    const named = CONTROLLER_IDS.filter((id) => CONTROLLER_LIMITS.controllers[id]?.maxDevices.value !== null)
      .map((id) => CONTROLLER_LIMITS.controllers[id]?.name)
      .join(", ");
    throw badRequest(`None of the chosen controllers has a known device limit (${named} do); choose one or give maxDevices`);
  }
  return best;
}

/** The proposal for splitting a bridge; changes nothing. */
export function previewSplit(bridges: BridgeService, model: HomeAssistantModel, bridgeId: string, request: SplitRequest) {
  const config = bridges.config(bridgeId);
  if (config.serverMode)
    throw badRequest("A server-mode bridge exposes its devices without an aggregator: there is nothing to split");
  const limit = limitFor(config, request);
  const by: SplitBy = request.by;
  const devices = countedFromPlan(bridges.plan(config)).flatMap((device) => {
    const view = device.entityId ? viewEntity(model, device.entityId) : undefined;
    return view ? [{ entityId: view.entityId, areaId: view.areaId, labels: [...view.labels, ...view.deviceLabels] }] : [];
  });
  const nameOf = (id: string) => (by === "area" ? model.areas.get(id)?.name : model.labels.get(id)?.name) ?? id;
  // Each new bridge's count is a plan of its own filter (a companion in another area may become a device there).
  const count = (filter: BridgeFilter) => countedFromPlan(bridges.plan({ ...config, filter })).length;
  const plan = planSplit({ by, maxDevices: limit.maxDevices, base: config, devices, nameOf, count });
  const proposed = plan.bridges.map((bridge) => ({
    ...bridge,
    deviceCount: bridge.devices,
    fits: bridge.devices <= limit.maxDevices,
  }));
  return {
    bridgeId,
    by,
    maxDevices: limit.maxDevices,
    limitFrom: limit.controller,
    /** Devices of the original bridge the split spreads (its plugin devices stay with it). */
    devices: devices.length,
    pluginDevices: bridges.pluginDevices(bridgeId).length,
    bridges: proposed.map(({ name, filter, groups, remainder, deviceCount, fits }) => ({
      name,
      filter,
      groups,
      remainder,
      deviceCount,
      fits,
    })),
    /** Areas (or labels) with more devices than one bridge takes: their bridge is over the limit, said here. */
    tooBig: plan.tooBig satisfies SplitGroup[],
    token: proposalToken(proposed),
  };
}
export type SplitProposal = ReturnType<typeof previewSplit>;

/**
 * Creates the proposal's bridges, each on the next free port, with the original's settings (priority, composition,
 * controllers, leave-outs), and starts them; then stops the original unless asked to keep it running. 409 when the
 * proposal differs from the previewed one (Home Assistant or the bridge changed in between).
 */
export async function confirmSplit(
  bridges: BridgeService,
  model: HomeAssistantModel,
  bridgeId: string,
  request: v.InferOutput<typeof SplitConfirmSchema>,
) {
  const proposal = previewSplit(bridges, model, bridgeId, request);
  if (proposal.token !== request.token)
    throw conflict("The bridge or Home Assistant changed since the preview: preview the split again");
  const original = bridges.config(bridgeId);
  const created = [];
  for (const bridge of proposal.bridges) {
    created.push(
      await bridges.create({
        name: bridge.name,
        port: await bridges.nextPort(),
        filter: bridge.filter,
        priority: original.priority,
        serverMode: false,
        composeDevices: original.composeDevices,
        controllers: request.controllers ?? original.controllers ?? [],
        leaveOutUnsupported: original.leaveOutUnsupported ?? false,
        autoStart: true,
      }),
    );
  }
  if (!request.keepOriginalRunning) await bridges.act(bridgeId, "stop");
  return { created, original: bridges.record(bridgeId) };
}
