/**
 * The HTTP side: an http server on which `/api/websocket` upgrades to the WebSocket API (ws' WebSocketServer in
 * noServer mode), plus HA's `/api/` probe (200 "API running." with a valid bearer token, 401 otherwise). While
 * refusing, every request and upgrade gets a 502, as a reverse proxy in front of a stopped HA answers.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";

export interface SimServerOptions {
  host: string;
  port: number;
  refusing(): boolean;
  token(): string;
  onSocket(socket: WebSocket): void;
  /** Further HTTP routes (the camera proxy); true when the request was answered. */
  routes?(request: IncomingMessage, response: ServerResponse): boolean;
}

export interface SimServer {
  readonly port: number;
  readonly sockets: ReadonlySet<WebSocket>;
  close(): Promise<void>;
}

function reply(response: ServerResponse, status: number, body: string, type = "text/plain; charset=utf-8"): void {
  // No keep-alive: probes are rare, and idle sockets would hold clients (and test processes) open.
  response.writeHead(status, { "Content-Type": type, "Content-Length": Buffer.byteLength(body), Connection: "close" });
  response.end(body);
}

export async function startSimServer(options: SimServerOptions): Promise<SimServer> {
  const wss = new WebSocketServer({ noServer: true });
  const sockets = new Set<WebSocket>();

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (options.refusing()) return reply(response, 502, "502 Bad Gateway");
    const path = (request.url ?? "/").split("?")[0];
    if (path === "/api/" || path === "/api") {
      const authorized = request.headers.authorization === `Bearer ${options.token()}`;
      if (!authorized) return reply(response, 401, "401: Unauthorized");
      return reply(response, 200, JSON.stringify({ message: "API running." }), "application/json");
    }
    if (options.routes?.(request, response)) return;
    reply(response, 404, "404: Not Found");
  });

  server.on("upgrade", (request, socket, head) => {
    const path = (request.url ?? "/").split("?")[0];
    if (options.refusing() || path !== "/api/websocket") {
      const status = options.refusing() ? "502 Bad Gateway" : "404 Not Found";
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      sockets.add(ws);
      ws.on("close", () => sockets.delete(ws));
      options.onSocket(ws);
    });
  });

  server.listen(options.port, options.host);
  await Promise.race([once(server, "listening"), once(server, "error").then(([error]) => Promise.reject(error))]);
  const { port } = server.address() as AddressInfo;

  return {
    port,
    sockets,
    async close() {
      for (const socket of sockets) socket.terminate();
      wss.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
