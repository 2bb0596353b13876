import { networkInterfaces } from "node:os";

/**
 * Refuses to go on unless this process runs in the private network namespace that `npm test` sets up: matter.js
 * multicasts mDNS on every interface it finds, and nothing of ours may reach a real network from here.
 */
export function assertNetworkIsolated(): void {
  const names = Object.keys(networkInterfaces());
  const onlyLoopback = names.every((name) => name === "lo");
  if (process.env.NETNS_ISOLATED !== "1" || !onlyLoopback) {
    throw new Error(
      `refusing to start a Matter node outside a private network namespace (interfaces: ${names.join(", ")}). ` +
        "Run it through `npm test` or `sh scripts/isolate.sh <command>`.",
    );
  }
}
