import {
  CommissioningFlowType,
  DiscoveryCapabilitiesSchema,
  ManualPairingCodeCodec,
  QrPairingCodeCodec,
  VendorId,
} from "@matter/main/types";

/**
 * The QR and manual pairing codes for a passcode/discriminator, computed the way matter.js' CommissioningServer
 * does, so a bridge that has never started (or is stopped) still shows the codes it will answer to.
 */
export function pairingCodesFor(input: { passcode: number; discriminator: number; vendorId: number; productId: number }) {
  const qrPairingCode = QrPairingCodeCodec.encode([
    {
      version: 0,
      vendorId: VendorId(input.vendorId),
      productId: input.productId,
      flowType: CommissioningFlowType.Standard,
      discriminator: input.discriminator,
      passcode: input.passcode,
      discoveryCapabilities: DiscoveryCapabilitiesSchema.encode({ onIpNetwork: true }),
    },
  ]);
  const manualPairingCode = ManualPairingCodeCodec.encode({ discriminator: input.discriminator, passcode: input.passcode });
  return { qrPairingCode, manualPairingCode };
}
