import assert from "node:assert/strict";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { upgradeWebSocket } from "@hono/node-server";
import { Hono } from "hono";
import { WebSocket } from "ws";
import { type RunningHttpServer, startHttpServer } from "../../../lib/http-server.ts";
import { memoryLogger } from "../../../lib/testing/fixtures.ts";
import { hubErrorHandler } from "../http/errors.ts";
import { LogRing } from "../logs/log-ring.ts";
import { logsRoutes } from "../logs/logs.routes.ts";
import { basicAuth } from "./basic-auth.middleware.ts";
import { BasicAuth } from "./basic-auth.ts";
import { BASIC_CHALLENGE, basicAuthorization } from "./basic-header.ts";
import { EnvCredentials } from "./env-credentials.ts";

/** Opens a WebSocket and resolves with the HTTP status of the handshake (101 when it opened). */
function handshake(url: string, headers: Record<string, string> = {}): Promise<{ status: number; challenge?: string }> {
  const socket = new WebSocket(url, { headers });
  return new Promise((resolve, reject) => {
    socket.once("open", () => {
      socket.close();
      resolve({ status: 101 });
    });
    socket.once("unexpected-response", (_request, response) => {
      resolve({ status: response.statusCode ?? 0, challenge: response.headers["www-authenticate"] });
      response.resume();
      socket.terminate();
    });
    socket.once("error", reject);
  });
}

describe("HTTP Basic authentication on a real server (SSE and WebSocket upgrades)", () => {
  const ring = new LogRing();
  const { log } = memoryLogger();
  let dataDir: string;
  let server: RunningHttpServer;
  let base: string;
  const good = basicAuthorization("admin", "env-Passw0rd!");

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "hub-auth-server-"));
    const auth = await BasicAuth.load({ dataDir, env: new EnvCredentials("admin", "env-Passw0rd!"), log });
    const app = new Hono();
    app.onError(hubErrorHandler(log));
    app.use(basicAuth(auth, { publicPaths: ["/api/health/live"] }));
    app.get("/api/health/live", (c) => c.json({ status: "alive" }));
    app.route("/api/logs", logsRoutes(ring));
    app.get(
      "/api/ws",
      upgradeWebSocket(() => ({ onMessage: (event, ws) => ws.send(String(event.data)) })),
    );
    server = await startHttpServer({ app, host: "127.0.0.1", port: 0, log });
    base = `127.0.0.1:${server.port}`;
  });

  after(async () => {
    ring.close();
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("keeps the liveness probe open", async () => {
    const response = await fetch(`http://${base}/api/health/live`);
    assert.equal(response.status, 200);
  });

  it("guards the SSE stream", async () => {
    const refused = await fetch(`http://${base}/api/logs/stream`);
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get("www-authenticate"), BASIC_CHALLENGE);
    assert.deepEqual(await refused.json(), { error: "Authentication required" });
    const controller = new AbortController();
    const accepted = await fetch(`http://${base}/api/logs/stream`, {
      headers: { Authorization: good },
      signal: controller.signal,
    });
    assert.equal(accepted.status, 200);
    assert.match(accepted.headers.get("content-type") ?? "", /text\/event-stream/);
    controller.abort();
  });

  it("guards WebSocket upgrades", async () => {
    assert.deepEqual(await handshake(`ws://${base}/api/ws`), { status: 401, challenge: BASIC_CHALLENGE });
    const wrong = await handshake(`ws://${base}/api/ws`, { Authorization: basicAuthorization("admin", "nope-nope") });
    assert.equal(wrong.status, 401);
    assert.deepEqual(await handshake(`ws://${base}/api/ws`, { Authorization: good }), { status: 101 });

    const socket = new WebSocket(`ws://${base}/api/ws`, { headers: { Authorization: good } });
    await once(socket, "open");
    socket.send("echo");
    const [reply] = await once(socket, "message");
    assert.equal(String(reply), "echo");
    socket.close();
  });
});
