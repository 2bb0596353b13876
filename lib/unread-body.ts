import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** A body the app left unread is read and dropped when at most this large (Content-Length), keeping the connection. */
export const DRAIN_MAX_BYTES = 1024 * 1024;
/** After `Connection: close`, how long the server keeps reading (and dropping) what the client still sends. */
export const LINGER_MS = 2000;

export interface UnreadBodyOptions {
  drainMaxBytes?: number;
  lingerMs?: number;
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/** Drops whatever of the body is still to come: no reader keeps it, reading resumes so the socket is never stuck. */
function discard(req: IncomingMessage): void {
  // A reader the app started and abandoned (e.g. a body limit that stopped half-way) would otherwise buffer it all.
  req.removeAllListeners("data");
  req.resume();
}

/**
 * Half-closes instead of destroying: the answer and a FIN go out, and what the client still sends is read and dropped
 * until it closes too (or `lingerMs` pass). Destroying a socket with unread data makes the kernel send a reset, and
 * a reset can wipe the answer from the client's receive buffer before the client read it ("lingering close").
 */
function lingeringClose(socket: Socket, req: IncomingMessage, lingerMs: number): void {
  socket.end();
  discard(req);
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
}

/**
 * Answers that leave before the request body was read (401, 403, 404, 413, 415...) must not break the connection
 * (issue 16 item 12). Decided when the answer's head is written:
 * - body complete, or announced at most `drainMaxBytes`: keep-alive; once the answer is sent the rest is read and
 *   dropped, and the next request on the connection is served as usual;
 * - larger or of unknown length (chunked): `Connection: close`, then a lingering close (above), so the client gets
 *   the whole answer and a clean end rather than a reset, and the server never reads a huge body to the end.
 * @hono/node-server's own clean-up (drain for 500 ms, then close without telling the client) must be off
 * (`autoCleanupIncoming: false`): it closed keep-alive connections the client was about to reuse.
 */
export function handleUnreadBodies(server: Server, options: UnreadBodyOptions = {}): void {
  const drainMaxBytes = options.drainMaxBytes ?? DRAIN_MAX_BYTES;
  const lingerMs = options.lingerMs ?? LINGER_MS;
  server.prependListener("request", (req: IncomingMessage, res: ServerResponse) => {
    if (!hasBody(req)) return;
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
      res.writeHead = writeHead;
      const length = Number(req.headers["content-length"]);
      const drainable = req.complete || (Number.isSafeInteger(length) && length <= drainMaxBytes);
      if (!drainable) {
        this.setHeader("Connection", "close");
        // Node ends a `Connection: close` response with destroySoon(): replaced for this one socket.
        const socket = req.socket;
        socket.destroySoon = () => lingeringClose(socket, req, lingerMs);
      }
      return writeHead.apply(this, args);
    } as ServerResponse["writeHead"];
    res.once("finish", () => {
      if (!req.readableEnded) discard(req);
    });
  });
}
