import { attempt, confirmDialog, notify } from "../../../common/components/notify.tsx";
import { navigate } from "../../../common/hash-router.tsx";
import { type BridgeAction, bridgeAction, cloneBridge, deleteBridge } from "../api/bridges.ts";
import { applyBridge, reloadBridges, removeBridge } from "../api/live.ts";
import type { Bridge } from "../api/types.ts";
import { S } from "../strings.ts";

const LABELS: Record<BridgeAction, string> = {
  start: S.bridges.start,
  stop: S.bridges.stop,
  restart: S.bridges.restart,
  refresh: S.bridges.refresh,
  "force-sync": S.bridges.forceSync,
  "factory-reset": S.bridges.factoryReset,
  "open-commissioning-window": S.detail.openWindow,
};

/** Runs one bridge action with its confirmation (factory reset) and reports the outcome. */
export async function runBridgeAction(bridge: Bridge, action: BridgeAction) {
  if (action === "factory-reset") {
    const ok = await confirmDialog({
      title: S.bridges.factoryResetTitle(bridge.name),
      text: S.bridges.factoryResetText,
      confirmLabel: S.bridges.factoryReset,
      danger: true,
    });
    if (!ok) return undefined;
  }
  const okText =
    action === "force-sync"
      ? undefined // says what it found, below
      : action === "refresh"
        ? S.detail.refreshed
        : S.bridges.actionDone(LABELS[action], bridge.name);
  const result = await attempt(LABELS[action], () => bridgeAction(bridge.id, action), okText);
  if (result?.sync) notify.ok(S.detail.syncedReport(result.sync));
  if (result?.bridge) applyBridge(result.bridge);
  else void reloadBridges();
  return result;
}

export async function confirmDelete(bridge: Bridge): Promise<void> {
  const ok = await confirmDialog({
    title: S.bridges.deleteTitle(bridge.name),
    text: S.bridges.deleteText,
    confirmLabel: S.common.delete,
    danger: true,
  });
  if (!ok) return;
  const done = await attempt(S.common.delete, async () => {
    await deleteBridge(bridge.id);
    return true;
  });
  if (done) {
    removeBridge(bridge.id);
    notify.ok(S.bridges.deleted(bridge.name));
    navigate("/bridges");
  }
}

export async function clone(bridge: Bridge): Promise<void> {
  const copy = await attempt(S.bridges.clone, () => cloneBridge(bridge.id));
  if (copy) {
    applyBridge(copy);
    navigate(`/bridges/${copy.id}`);
    notify.ok(S.bridges.cloned(copy.name));
  }
}
