import type { AddressInfo } from "node:net";
import { type ServerType, serve } from "@hono/node-server";
import type { Hono } from "hono";
import { WebSocketServer } from "ws";
import type { Logger } from "./logger.ts";

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
}

/**
 * Serves a Hono app with @hono/node-server, with WebSocket upgrades enabled (routes opt in with
 * `upgradeWebSocket`), and resolves once the port is bound. Rejects with the bind error (e.g. EADDRINUSE).
 */
export function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const wss = new WebSocketServer({ noServer: true });
  return new Promise((resolve, reject) => {
    let server: ServerType | undefined;
    const onError = (error: Error) => reject(error);
    server = serve(
      { fetch: options.app.fetch, hostname: options.host, port: options.port, websocket: { server: wss } },
      (info: AddressInfo) => {
        server?.off("error", onError);
        const running: RunningHttpServer = {
          port: info.port,
          host: options.host,
          close: () => closeServer(server as ServerType, wss),
        };
        options.log.info({ host: options.host, port: info.port }, `listening on http://${options.host}:${info.port}`);
        resolve(running);
      },
    );
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
