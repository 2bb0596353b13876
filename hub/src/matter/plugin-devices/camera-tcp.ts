/**
 * Matter over TCP for a running bridge, switched on the moment its first camera mounts (docs/plugins.md "Limits":
 * the WebRTC signalling commands are large messages; an SDP offer does not fit a 1280-byte UDP datagram, and
 * matter.js refuses them on a UDP session with INVALID_TRANSPORT_TYPE).
 *
 * matter.js reads `network.tcp` only when the node's network starts, so enabling it from the node options would need
 * a bridge restart. Instead this adds what that start-up would have added, live: a TCP listener on the operational
 * port (the same number as the UDP port, as Matter requires), the TCP bit in the session parameters new sessions
 * negotiate, and the `T` key of every fabric's operational mDNS record. TCP then stays on until the node stops; a
 * bridge whose cameras are all removed listens on TCP until its next start (nothing is advertised that is not true).
 */
import { Network, type ServerNode, TransportSet } from "@matter/main";
import { DeviceAdvertiser, FabricManager, SessionManager, TcpTransport } from "@matter/main/protocol";

const SUPPORTED = { tcpClient: true, tcpServer: true } as const;

/** Nodes whose TCP listener is open or opening (one listener per node, however many cameras ask). */
const opening = new WeakMap<ServerNode, Promise<void>>();

/** True when the node already has a TCP transport (from its own options or from {@link enableTcp}). */
export function hasTcp(node: ServerNode): boolean {
  return [...node.env.get(TransportSet)].some((transport) => transport instanceof TcpTransport);
}

/**
 * Opens TCP on the node's operational port and announces it; idempotent. Rejects (and may be retried) when the port
 * is taken over TCP by another process.
 */
export function enableTcp(node: ServerNode): Promise<void> {
  const pending = opening.get(node);
  if (pending) return pending;
  const run = open(node);
  opening.set(node, run);
  run.catch(() => opening.delete(node));
  return run;
}

async function open(node: ServerNode): Promise<void> {
  if (hasTcp(node)) return;
  const { env } = node;
  const port = node.state.network.operationalPort;
  if (!port || port <= 0) throw new Error("the bridge has no operational port yet");
  let transport: TcpTransport;
  try {
    transport = await TcpTransport.create({ network: env.get(Network), listeningPort: port });
  } catch (error) {
    throw new Error(`could not listen on TCP port ${port} for camera signalling: ${(error as Error).message}`);
  }
  env.get(TransportSet).add(transport);
  env.get(SessionManager).sessionParameters = { supportedTransports: SUPPORTED };
  const advertiser = env.get(DeviceAdvertiser);
  advertiser.supportedTransports = SUPPORTED;
  for (const fabric of env.get(FabricManager)) await advertiser.refreshOperationalAdvertisement(fabric);
}
