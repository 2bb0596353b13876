import { createSocket } from "node:dgram";
import { DEFAULT_MATTER_PORT } from "./bridge-config.ts";

/** True when a UDP socket can bind the port on all IPv6 (and mapped IPv4) addresses right now. */
export function udpPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createSocket({ type: "udp6" });
    socket.once("error", () => {
      socket.close();
      resolve(false);
    });
    socket.bind(port, () => socket.close(() => resolve(true)));
  });
}

/**
 * The lowest Matter port from `first` (5540) up that no bridge uses and nothing else on the host has bound (Home
 * Assistant's own Matter server, for example, also likes 5540).
 */
export async function nextFreePort(used: ReadonlySet<number>, probe = udpPortFree, first = DEFAULT_MATTER_PORT): Promise<number> {
  for (let port = first; port <= 65535; port++) {
    if (!used.has(port) && (await probe(port))) return port;
  }
  throw new Error("no free UDP port left for a Matter bridge");
}
