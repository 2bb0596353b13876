import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type ServerType, serve } from "@hono/node-server";
import type { Hono } from "hono";
import { WebSocketServer } from "ws";
import type { Logger } from "./logger.ts";
import { handleUnreadBodies } from "./unread-body.ts";

/** No client message on our WebSockets needs more; a larger frame closes the socket with 1009 before it is read. */
export const MAX_WEBSOCKET_PAYLOAD_BYTES = 64 * 1024;

export interface RunningHttpServer {
  /** The port actually bound (useful when 0 was asked for). */
  readonly port: number;
  readonly host: string;
  /** Stops accepting connections, ends keep-alive and WebSocket connections, resolves when closed. */
  close(): Promise<void>;
}

export interface HttpServerOptions {
  // biome-ignore lint/suspicious/noExplicitAny: any Hono app, whatever its env and schema types
  app: Hono<any, any, any>;
  host: string;
  port: number;
  log: Logger;
  /** Added to every request's env (Hono's `c.env`), e.g. which of a server's listeners a request came in on. */
  bindings?: Record<string, unknown>;
  /** Largest WebSocket message accepted (`MAX_WEBSOCKET_PAYLOAD_BYTES`). */
  maxWebSocketPayload?: number;
  /** A name for the log line ("listening ..."), when a server has more than one listener. */
  name?: string;
}

/**
 * Serves a Hono app with @hono/node-server, with WebSocket upgrades enabled (routes opt in with
 * `upgradeWebSocket`), and resolves once the port is bound. Rejects with the bind error (e.g. EADDRINUSE).
 * Request bodies the app answers without reading are dealt with in unread-body.ts.
 */
export function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxWebSocketPayload ?? MAX_WEBSOCKET_PAYLOAD_BYTES });
  const { app, bindings } = options;
  // The env object itself carries @hono/node-server's WebSocket hand-shake state: extended in place, never copied.
  const fetch: typeof app.fetch = bindings
    ? (request, env, ...rest) => app.fetch(request, Object.assign(env, bindings), ...rest)
    : app.fetch;
  return new Promise((resolve, reject) => {
    let server: ServerType | undefined;
    const onError = (error: Error) => reject(error);
    server = serve(
      { fetch, hostname: options.host, port: options.port, websocket: { server: wss }, autoCleanupIncoming: false },
      (info: AddressInfo) => {
        server?.off("error", onError);
        const running: RunningHttpServer = {
          port: info.port,
          host: options.host,
          close: () => closeServer(server as ServerType, wss),
        };
        const what = options.name ? `${options.name} listening` : "listening";
        options.log.info({ host: options.host, port: info.port }, `${what} on http://${options.host}:${info.port}`);
        resolve(running);
      },
    );
    handleUnreadBodies(server as Server);
    server.once("error", onError);
  });
}

function closeServer(server: ServerType, wss: WebSocketServer): Promise<void> {
  for (const client of wss.clients) client.terminate();
  wss.close();
  return new Promise((resolve) => {
    server.close(() => resolve());
    // Idle keep-alive sockets would hold close() open; SSE streams are ended by their owners first.
    if ("closeIdleConnections" in server) server.closeIdleConnections();
    if ("closeAllConnections" in server) setTimeout(() => server.closeAllConnections(), 1000).unref();
  });
}
