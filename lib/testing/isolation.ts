import { networkInterfaces } from "node:os";

/**
 * Refuses to go on unless this process runs in a private network namespace that `npm test` (loopback only) or the
 * interop run (loopback plus its own veth pair, both ends inside the namespace: hub/test/interop/netns.sh, which
 * names them in NETNS_TEST_LINKS) sets up: matter.js multicasts mDNS on every interface it finds, and nothing of ours
 * may reach a real network from here.
 */
export function assertNetworkIsolated(): void {
  const names = Object.keys(networkInterfaces());
  const testLinks = new Set((process.env.NETNS_TEST_LINKS ?? "").split(",").filter(Boolean));
  const contained = names.every((name) => name === "lo" || testLinks.has(name));
  if (process.env.NETNS_ISOLATED !== "1" || !contained) {
    throw new Error(
      `refusing to start a Matter node outside a private network namespace (interfaces: ${names.join(", ")}). ` +
        "Run it through `npm test` or `sh scripts/isolate.sh <command>`.",
    );
  }
}
