/**
 * The host's UDP receive buffer cap (docs/plugins.md "Limits": 4 MB requested, a lower `net.core.rmem_max` may need
 * raising). Live video is a burst of UDP datagrams per key frame; a receiver whose buffer is capped low drops them and
 * the picture freezes. For sessions a controller offered, the hub relays only the signalling and the receivers are
 * Home Assistant's WebRTC server (on this host in an add-on install) and the controller; for sessions it offered
 * itself (SolicitOffer) the hub's media relay receives the video and its media sockets ask for 4 MB
 * ({@link requestReceiveBuffer}). Either way the hub asks this host for 4 MB once, sees what it is granted, and names
 * the sysctl when the cap is lower.
 */
import { createSocket, type Socket } from "node:dgram";
import { once } from "node:events";
import { readFile } from "node:fs/promises";

export const RECEIVE_BUFFER_BYTES = 4 * 1024 * 1024;
const RMEM_MAX = "/proc/sys/net/core/rmem_max";

export interface ReceiveBufferReport {
  requested: number;
  /** What a UDP socket asking for {@link RECEIVE_BUFFER_BYTES} got (Linux reports twice the usable size). */
  granted: number | null;
  /** `net.core.rmem_max`, when readable. */
  rmemMax: number | null;
  /** The advice for the user, or null when the host allows 4 MB. */
  hint: string | null;
}

async function readCap(path: string): Promise<number | null> {
  try {
    const value = Number.parseInt((await readFile(path, "utf8")).trim(), 10);
    return Number.isFinite(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
}

/** What a bound socket's buffer size reads as usable bytes (Linux reports twice the usable size). */
function usable(size: number): number {
  return process.platform === "linux" ? Math.floor(size / 2) : size;
}

/**
 * Asks a bound UDP socket for a 4 MB receive buffer; returns what it was granted (the host caps it at
 * `net.core.rmem_max` silently), or null when the platform refused.
 */
export function requestReceiveBuffer(socket: Socket): number | null {
  try {
    socket.setRecvBufferSize(RECEIVE_BUFFER_BYTES);
    return usable(socket.getRecvBufferSize());
  } catch {
    return null;
  }
}

/** Asks a throwaway UDP socket for 4 MB and returns what it was given (null where the platform refuses to say). */
async function probe(): Promise<number | null> {
  const socket = createSocket({ type: "udp4", recvBufferSize: RECEIVE_BUFFER_BYTES });
  try {
    socket.bind(0, "127.0.0.1");
    await once(socket, "listening");
    return usable(socket.getRecvBufferSize());
  } catch {
    return null;
  } finally {
    socket.close();
  }
}

export async function checkReceiveBuffer(options: { rmemMaxPath?: string } = {}): Promise<ReceiveBufferReport> {
  const rmemMax = await readCap(options.rmemMaxPath ?? RMEM_MAX);
  const granted = await probe();
  const cap = rmemMax ?? granted;
  const hint =
    cap !== null && cap < RECEIVE_BUFFER_BYTES
      ? `this host caps UDP receive buffers at ${cap} bytes (net.core.rmem_max), below the ${RECEIVE_BUFFER_BYTES} live video wants: ` +
        `raise it on the host with "sysctl -w net.core.rmem_max=${RECEIVE_BUFFER_BYTES}" if the picture stutters or freezes`
      : null;
  return { requested: RECEIVE_BUFFER_BYTES, granted, rmemMax, hint };
}
