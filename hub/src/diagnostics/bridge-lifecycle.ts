import type { BridgeService } from "../bridges/bridge-service.ts";
import { controllerVendor, vendorIdHex } from "./controller-vendors.ts";
import type { DiagnosticBus, DiagnosticInput } from "./diagnostic-bus.ts";

type BridgeRecord = ReturnType<BridgeService["record"]>;

/** What was last seen of a bridge, to turn `changed` notifications into transitions. */
interface Seen {
  name: string;
  status: string;
  statusReason: string | null;
  commissioned: boolean;
  /** Fabric index → "vendorId:label". */
  fabrics: Map<number, string>;
}

/**
 * Turns the bridge service's `changed`/`listChanged` notifications into lifecycle events: a status transition
 * (starting, running, stopped, failed with its reason), pairing (commissioned, decommissioned, fabrics added or
 * removed) and deletion. `changed` fires synchronously on every status change, so no transition is missed;
 * notifications that change nothing visible here (devices, configuration) publish nothing.
 */
export function watchBridgeLifecycle(bus: DiagnosticBus, bridges: BridgeService): () => void {
  const known = new Map<string, Seen>();

  const onChanged = (bridgeId: string) => {
    let record: BridgeRecord;
    try {
      record = bridges.record(bridgeId);
    } catch {
      return; // deleted meanwhile: `listChanged` reports it
    }
    const before = known.get(bridgeId);
    const now = seen(record);
    known.set(bridgeId, now);
    if (!before || before.status !== now.status || before.statusReason !== now.statusReason) bus.publish(statusEvent(record));
    // The first sight is a baseline: fabrics paired before this process started are no news.
    if (before) for (const event of pairingEvents(record, before, now)) bus.publish(event);
  };

  const onListChanged = () => {
    const listed = new Set(bridges.list().map((bridge) => bridge.id));
    for (const [bridgeId, last] of known) {
      if (listed.has(bridgeId)) continue;
      known.delete(bridgeId);
      bus.publish({ type: "bridge_deleted", level: "info", bridgeId, message: `Bridge "${last.name}" was deleted` });
    }
  };

  bridges.on("changed", onChanged);
  bridges.on("listChanged", onListChanged);
  return () => {
    bridges.off("changed", onChanged);
    bridges.off("listChanged", onListChanged);
  };
}

function seen(record: BridgeRecord): Seen {
  const fabrics = new Map(record.commissioning.fabrics.map((f) => [f.fabricIndex, `${f.vendorId}:${f.label}`]));
  return {
    name: record.name,
    status: record.status,
    statusReason: record.statusReason,
    commissioned: record.commissioning.commissioned,
    fabrics,
  };
}

function statusEvent(record: BridgeRecord): DiagnosticInput {
  const { id: bridgeId, name, status, statusReason: reason, port, deviceCount } = record;
  const data = { status, reason, port, deviceCount };
  switch (status) {
    case "running":
      return {
        type: "bridge_running",
        level: "info",
        bridgeId,
        message: `Bridge "${name}" is running on port ${port} with ${deviceCount} device(s)`,
        data,
      };
    case "failed":
      return {
        type: "bridge_failed",
        level: "error",
        bridgeId,
        message: `Bridge "${name}" failed: ${reason ?? "unknown"}`,
        data,
      };
    case "starting":
      return {
        type: "bridge_starting",
        level: "info",
        bridgeId,
        message: `Bridge "${name}" is starting${reason ? ` (${reason})` : ""}`,
        data,
      };
    default:
      return { type: "bridge_stopped", level: "info", bridgeId, message: `Bridge "${name}" stopped`, data };
  }
}

function pairingEvents(record: BridgeRecord, before: Seen, now: Seen): DiagnosticInput[] {
  const fabrics = record.commissioning.fabrics;
  const describe = (f: (typeof fabrics)[number]) => ({
    fabricIndex: f.fabricIndex,
    vendorId: f.vendorId,
    vendor: controllerVendor(f.vendorId),
    label: f.label,
  });
  const added = fabrics.filter((f) => before.fabrics.get(f.fabricIndex) !== now.fabrics.get(f.fabricIndex)).map(describe);
  const removed = [...before.fabrics.keys()].filter((index) => !now.fabrics.has(index));
  const data = { fabrics: fabrics.map(describe), added, removed };
  const bridgeId = record.id;
  const name = (f: ReturnType<typeof describe>) => `${f.label || "unnamed"} (${f.vendor ?? vendorIdHex(f.vendorId)})`;
  if (!before.commissioned && now.commissioned) {
    const by = added.map(name).join(", ");
    return [
      {
        type: "bridge_commissioned",
        level: "info",
        bridgeId,
        message: `Bridge "${record.name}" paired${by ? ` with ${by}` : ""}`,
        data,
      },
    ];
  }
  if (before.commissioned && !now.commissioned) {
    return [
      { type: "bridge_decommissioned", level: "warn", bridgeId, message: `Bridge "${record.name}" has no fabric left`, data },
    ];
  }
  if (added.length === 0 && removed.length === 0) return [];
  const parts = [...added.map((f) => `+${name(f)}`), ...removed.map((index) => `-fabric ${index}`)];
  return [
    {
      type: "bridge_fabrics_changed",
      level: "info",
      bridgeId,
      message: `Bridge "${record.name}" fabrics changed: ${parts.join(", ")}`,
      data,
    },
  ];
}
