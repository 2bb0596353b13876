import { CRYPTO_PBKDF_ITERATIONS_MIN, Crypto, type ServerNode } from "@matter/main";
import { AdministratorCommissioningServer } from "@matter/main/behaviors/administrator-commissioning";
import { AdministratorCommissioning } from "@matter/main/clusters/administrator-commissioning";
import { DeviceCommissioner, PaseClient, PaseServer, SessionManager } from "@matter/main/protocol";
import type { CommissioningInfo } from "../../bridges/bridge-runtime.ts";
import { pairingCodesFor } from "./pairing-codes.ts";

export type { CommissioningInfo, FabricInfo } from "../../bridges/bridge-runtime.ts";

/** Codes of a commissioning window opened for an additional controller. */
export interface CommissioningWindow {
  manualPairingCode: string;
  qrPairingCode: string;
  passcode: number;
  discriminator: number;
  /** ISO time when the window closes by itself. */
  expiresAt: string;
}

/** Matter's bounds for a commissioning window (AdministratorCommissioning, 180 s to 15 min). */
export const MIN_WINDOW_SECONDS = 180;
export const MAX_WINDOW_SECONDS = 900;

/** Reads the node's commissioning state; valid whether the node is online or not (it comes from storage). */
export function readCommissioning(node: ServerNode): CommissioningInfo {
  const state = node.state.commissioning;
  const { qrPairingCode, manualPairingCode } = state.pairingCodes;
  const fabrics = Object.values(state.fabrics)
    .map((fabric) => ({ fabricIndex: fabric.fabricIndex, vendorId: fabric.rootVendorId, label: fabric.label }))
    .sort((a, b) => a.fabricIndex - b.fabricIndex);
  return {
    commissioned: state.commissioned,
    qrPairingCode,
    manualPairingCode,
    passcode: state.passcode,
    discriminator: state.discriminator,
    fabrics,
  };
}

/**
 * Opens an enhanced commissioning window on a commissioned, online node from the bridge side, with a fresh random
 * passcode and discriminator. matter.js only offers this as the AdministratorCommissioning command, which insists
 * on a remote (CASE) caller; so this does what that command does, on the same DeviceCommissioner: a PASE server for
 * the new passcode, commissionable mDNS under the new discriminator, and the cluster's WindowStatus attribute (with
 * null admin fabric: no administrator opened it). `onEnd` runs once when the window closes, whether a controller
 * completed commissioning, the timeout passed or `close()` was called.
 */
export async function openEnhancedWindow(
  node: ServerNode,
  timeoutSeconds: number,
  onEnd: () => void,
): Promise<{ window: CommissioningWindow; close(): Promise<void> }> {
  const crypto = node.env.get(Crypto);
  const commissioner = node.env.get(DeviceCommissioner);
  if (commissioner.isFailsafeArmed) throw new Error("a commissioning is in progress; try again in a minute");
  const { windowStatus } = node.state.administratorCommissioning;
  if (windowStatus !== AdministratorCommissioning.CommissioningWindowStatus.WindowNotOpen) {
    throw new Error("a controller has opened a commissioning window; use its codes or wait until it closes");
  }

  const passcode = PaseClient.generateRandomPasscode(crypto);
  const discriminator = PaseClient.generateRandomDiscriminator(crypto);
  const pbkdf = { iterations: CRYPTO_PBKDF_ITERATIONS_MIN, salt: crypto.randomBytes(32) };
  const paseServer = await PaseServer.fromPin(node.env.get(SessionManager), passcode, pbkdf);

  let timer: NodeJS.Timeout | undefined;
  let ended = false;
  const setWindowStatus = (windowStatus: AdministratorCommissioning.CommissioningWindowStatus) =>
    node.setStateOf(AdministratorCommissioningServer, { windowStatus, adminFabricIndex: null, adminVendorId: null });
  const end = async () => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    // The node may be going offline (that also ends the window); the attribute then no longer matters.
    await setWindowStatus(AdministratorCommissioning.CommissioningWindowStatus.WindowNotOpen).catch(() => undefined);
    onEnd();
  };

  await commissioner.allowEnhancedCommissioning(discriminator, paseServer, end);
  await setWindowStatus(AdministratorCommissioning.CommissioningWindowStatus.EnhancedWindowOpen);
  // DeviceCommissioner has no timeout of its own for a window it did not open through the cluster.
  timer = setTimeout(() => void commissioner.endCommissioning().catch(() => end()), timeoutSeconds * 1000);
  timer.unref();

  const { vendorId, productId } = node.state.basicInformation;
  const { qrPairingCode, manualPairingCode } = pairingCodesFor({ vendorId, productId, discriminator, passcode });
  const expiresAt = new Date(Date.now() + timeoutSeconds * 1000).toISOString();
  return {
    window: { manualPairingCode, qrPairingCode, passcode, discriminator, expiresAt },
    close: async () => {
      if (!ended) await commissioner.endCommissioning();
    },
  };
}
