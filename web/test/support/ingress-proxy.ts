import { createServer, type IncomingMessage, request } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";

export interface IngressProxy {
  /** e.g. `http://127.0.0.1:41234/api/hassio_ingress/test/` */
  readonly url: string;
  readonly prefix: string;
  close(): Promise<void>;
}

/**
 * What Home Assistant's Supervisor does for an ingress panel, in small: serves the hub under
 * `/api/hassio_ingress/<token>/`, strips that prefix, adds `X-Ingress-Path`, and passes WebSocket upgrades and
 * streamed responses (SSE) through untouched. Anything outside the prefix is a 404, so a UI that uses an absolute
 * URL breaks here as it would in Home Assistant.
 */
export async function startIngressProxy(
  targetPort: number,
  token = "test",
  options: { fakeWebSocket?: (socket: WebSocket, request: IncomingMessage) => void } = {},
): Promise<IngressProxy> {
  const fakeWss = options.fakeWebSocket ? new WebSocketServer({ noServer: true }) : undefined;
  const prefix = `/api/hassio_ingress/${token}`;
  const strip = (url: string): string | undefined => {
    if (url === prefix) return "/";
    return url.startsWith(`${prefix}/`) ? url.slice(prefix.length) : undefined;
  };
  // Like Home Assistant's proxies: the browser's headers go on unchanged, Host and Origin included (the hub's CSRF
  // check compares them), plus X-Ingress-Path, X-Forwarded-Host and X-Forwarded-For.
  const headersFor = (raw: string[]): Record<string, string | string[]> => {
    const headers: Record<string, string | string[]> = {};
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!.toLowerCase();
      if (name === "x-ingress-path") continue;
      const value = raw[i + 1]!;
      const existing = headers[name];
      headers[name] = existing === undefined ? value : ([] as string[]).concat(existing, value);
    }
    headers["x-ingress-path"] = prefix;
    headers["x-forwarded-host"] ??= headers.host ?? "";
    headers["x-forwarded-for"] = "127.0.0.1";
    return headers;
  };

  const server = createServer((req, res) => {
    const path = strip(req.url ?? "/");
    if (path === undefined) {
      res.writeHead(404, { "content-type": "text/plain" }).end(`ingress proxy: ${req.url} is outside ${prefix}/`);
      return;
    }
    const upstream = request(
      { host: "127.0.0.1", port: targetPort, method: req.method, path, headers: headersFor(req.rawHeaders) },
      (response) => {
        res.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(res);
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502).end("bad gateway");
      else res.destroy();
    });
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  });

  server.on("upgrade", (req, socket, head) => {
    const path = strip(req.url ?? "/");
    if (path === undefined) {
      socket.end("HTTP/1.1 404 Not Found\r\nconnection: close\r\n\r\n");
      return;
    }
    if (fakeWss && options.fakeWebSocket && path === "/api/ws") {
      const handler = options.fakeWebSocket;
      fakeWss.handleUpgrade(req, socket, head, (ws) => handler(ws, req));
      return;
    }
    const upstream = connect(targetPort, "127.0.0.1", () => {
      const headers = headersFor(req.rawHeaders);
      const lines = Object.entries(headers).flatMap(([name, value]) =>
        (Array.isArray(value) ? value : [value]).map((v) => `${name}: ${v}`),
      );
      upstream.write(`${req.method} ${path} HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    const close = () => {
      upstream.destroy();
      socket.destroy();
    };
    upstream.on("error", close);
    socket.on("error", close);
    upstream.on("close", close);
    socket.on("close", close);
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${prefix}/`,
    prefix,
    close: () =>
      new Promise((resolve) => {
        for (const client of fakeWss?.clients ?? []) client.terminate();
        fakeWss?.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
