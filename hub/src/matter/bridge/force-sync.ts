import type { Endpoint } from "@matter/main";
import type { Logger } from "../../../../lib/logger.ts";
import type { ForceSyncReport } from "../../bridges/bridge-runtime.ts";
import { viewEntity } from "../../home-assistant/entity-view.ts";
import type { HomeAssistantService } from "../../home-assistant/home-assistant-service.ts";
import { updateDeviceEndpoint } from "../devices/endpoint-types.ts";
import type { StateWriter } from "../devices/state-writer.ts";
import type { EntitySnapshot } from "../model/contract.ts";

/** What force-sync needs of its bridge. */
export interface ForceSyncTarget {
  ha: HomeAssistantService;
  log: Logger;
  /** The exposed devices now (read inside the bridge's queue). */
  devices(): ReadonlyMap<string, { endpoint: Endpoint; name: string }>;
  snapshot(entityId: string, name: string): EntitySnapshot | undefined;
  /** The entity's capabilities changed: rebuild its endpoint (same endpoint id and number). */
  rebuild(entityId: string): Promise<void>;
  /** Runs `task` in the bridge's queue, after what is pending. */
  serial<T>(task: () => Promise<T>): Promise<T>;
  /** The bridge's state writer: the corrections share transactions. */
  writer: StateWriter;
}

/**
 * Force-sync (docs/decisions.md): re-reads HA's state (`get_states`, so changes the event stream missed count too),
 * then compares every attribute of every device with HA's state and writes each one that differs, whoever changed it.
 * matter.js reports exactly the written attributes to every subscribed controller; unchanged attributes already hold
 * the value the controllers last got, and a controller whose subscription broke gets everything when it subscribes
 * again.
 */
export async function forceSync(target: ForceSyncTarget): Promise<ForceSyncReport> {
  let haStateReread = true;
  let missed: string[] = [];
  try {
    // Changed entities reach their endpoints through the usual per-entity listeners.
    missed = await target.ha.resyncStates();
  } catch (error) {
    haStateReread = false;
    target.log.warn({ err: error }, "force-sync: could not re-read Home Assistant's states; pushing the last known ones");
  }
  return target.serial(async () => {
    let correctedAttributes = 0;
    const devices = [...target.devices()];
    // Started together so their writes share transactions; each endpoint's own updates still run in order.
    const updates = devices.map(async ([entityId, exposed]) => {
      if (!viewEntity(target.ha.model, entityId)) return undefined;
      const snapshot = target.snapshot(entityId, exposed.name);
      if (!snapshot) return undefined;
      try {
        const result = await updateDeviceEndpoint(exposed.endpoint, snapshot, undefined, target.writer);
        correctedAttributes += result.changed.length;
        return result.rebuild ? entityId : undefined;
      } catch (error) {
        target.log.warn({ entityId, err: error }, "force-sync: could not update a device");
        return undefined;
      }
    });
    for (const entityId of await Promise.all(updates)) if (entityId) await target.rebuild(entityId);
    const exposedNow = target.devices();
    const missedChanges = missed.filter((id) => exposedNow.has(id)).length;
    return { devices: devices.length, missedChanges, correctedAttributes, haStateReread };
  });
}
