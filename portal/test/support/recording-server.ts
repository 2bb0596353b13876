import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** One request a RecordingServer received. */
export interface RecordedRequest {
  method: string;
  url: string;
  authorization: string | undefined;
}

export interface RecordingServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  requests(): RecordedRequest[];
  close(): Promise<void>;
}

/**
 * A plain HTTP server that is no homeserver: it records every request (method, URL, Authorization header) and
 * answers 404 with a small HTML page, as an unrelated web server would. Tests point a managed server at it to see
 * what the portal would send to a host it should not trust.
 */
export async function startRecordingServer(): Promise<RecordingServer> {
  const seen: RecordedRequest[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    seen.push({ method: request.method ?? "", url: request.url ?? "", authorization: request.headers.authorization });
    request.resume();
    response.writeHead(404, { "content-type": "text/html" }).end("<h1>Not Found</h1>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => seen.map((entry) => ({ ...entry })),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
