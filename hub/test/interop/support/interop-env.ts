/**
 * Where the interop run keeps its things (docs/INTEROP.md "How it runs"): the Python environments made by
 * scripts/interop.mjs under .cache/interop/ (git-ignored, reused), the SDK logs and trust store under
 * test-artifacts/interop/, and the network the run's private namespace was given by hub/test/interop/netns.sh.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { TestCert_PAA_NoVID_Cert } from "@matter/protocol";

const root = fileURLToPath(new URL("../../../..", import.meta.url));

export interface InteropPaths {
  root: string;
  interopDir: string;
  chipPython: string;
  haPython: string;
  artifacts: string;
  paaDir: string;
}

export function interopPaths(): InteropPaths {
  const cache = join(root, ".cache", "interop");
  const artifacts = join(root, "test-artifacts", "interop");
  return {
    root,
    interopDir: join(root, "hub", "test", "interop"),
    chipPython: join(cache, "chip", "bin", "python"),
    haPython: join(cache, "ha", "bin", "python"),
    artifacts,
    paaDir: join(artifacts, "paa"),
  };
}

/** The interface the bridges announce on and the addresses netns.sh gave the two ends of the test link. */
export interface InteropNetwork {
  hubInterface: string;
  hubAddress: string;
  hubAddress4: string;
}

/** The test network netns.sh set up; throws when the tests run outside it (run `npm run test:interop`). */
export function interopNetwork(): InteropNetwork {
  const hubInterface = process.env.INTEROP_HUB_INTERFACE;
  const hubAddress = process.env.INTEROP_HUB_ADDRESS;
  const hubAddress4 = process.env.INTEROP_HUB_ADDRESS4;
  if (!hubInterface || !hubAddress || !hubAddress4) {
    throw new Error("the interop tests run inside their own test network: use `npm run test:interop`");
  }
  return { hubInterface, hubAddress, hubAddress4 };
}

/**
 * The controller's PAA trust store: the "Matter Test PAA" (no vendor id) that matter.js signs its development PAI
 * and DAC with, taken from the installed matter.js, so the reference controller checks device attestation for real
 * (it refuses a chain it cannot anchor: reference-controller.md section 2).
 */
export function ensurePaaTrustStore(): string {
  const { paaDir } = interopPaths();
  mkdirSync(paaDir, { recursive: true });
  writeFileSync(join(paaDir, "Chip-Test-PAA-NoVID-Cert.der"), Buffer.from(TestCert_PAA_NoVID_Cert as ArrayBuffer));
  return paaDir;
}
