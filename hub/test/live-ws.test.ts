import assert from "node:assert/strict";
import { once } from "node:events";
import { connect } from "node:net";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { WebSocket } from "ws";
import type { RunningHttpServer } from "../../lib/http-server.ts";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import { createDemoHome } from "../../simulators/home-assistant/demo-home.ts";
import { type HaSimulator, startHaSimulator } from "../../simulators/home-assistant/index.ts";
import { basicAuthorization } from "../src/auth/basic-header.ts";
import { loadHubConfig } from "../src/config.ts";
import { createHub, type Hub } from "../src/hub.ts";
import { LogRing } from "../src/logs/log-ring.ts";
import { freeUdpPort, silentLogger, tempDir } from "./support/matter-fixtures.ts";

type Message = { type: string; data?: unknown; bridgeId?: string; message?: string };
type Bridge = { id: string; name: string; status: string };

const PING_MS = 400;

/** A `ws` client that answers server pings (unless told not to) and queues every other message. */
class LiveClient {
  readonly queue: Message[] = [];
  pings = 0;
  #wake: (() => void) | undefined;

  private constructor(
    readonly socket: WebSocket,
    answerPings: boolean,
  ) {
    socket.on("message", (raw) => {
      const message = JSON.parse(String(raw)) as Message;
      if (message.type === "ping") {
        this.pings++;
        if (answerPings) socket.send(JSON.stringify({ type: "pong" }));
        return;
      }
      this.queue.push(message);
      this.#wake?.();
    });
  }

  static async open(url: string, options: { headers?: Record<string, string>; answerPings?: boolean } = {}) {
    const socket = new WebSocket(url, { headers: options.headers });
    const client = new LiveClient(socket, options.answerPings ?? true);
    await once(socket, "open");
    return client;
  }

  send(message: unknown) {
    this.socket.send(typeof message === "string" ? message : JSON.stringify(message));
  }

  /** The next queued message that matches, dropping the ones before it; rejects after `timeoutMs`. */
  async next(match: (m: Message) => boolean = () => true, timeoutMs = 15_000): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const message = this.queue.shift();
      if (message && match(message)) return message;
      if (message) continue;
      if (Date.now() > deadline) throw new Error("no matching live message in time");
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        setTimeout(resolve, 50);
      });
    }
  }

  close() {
    this.socket.close();
  }
}

/**
 * Opens /api/ws by hand and sends the head of one masked text frame that announces `length` bytes, followed by only
 * `sent` of them; resolves with the close code the server answers with (undefined if it closes without one).
 */
async function announceFrame(port: number, length: number, sent: number): Promise<number | undefined> {
  const socket = connect(port, "127.0.0.1");
  await once(socket, "connect");
  let buffer = Buffer.alloc(0);
  let upgraded = false;
  const closeCode = new Promise<number | undefined>((resolve, reject) => {
    socket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (!upgraded) {
        const end = buffer.indexOf("\r\n\r\n");
        if (end < 0) return;
        if (!buffer.subarray(0, 12).toString().includes("101")) reject(new Error(buffer.toString()));
        upgraded = true;
        buffer = buffer.subarray(end + 4);
        const head = Buffer.alloc(14);
        head[0] = 0x81; // FIN, text
        head[1] = 0x80 | 127; // masked, 64-bit length
        head.writeBigUInt64BE(BigInt(length), 2);
        socket.write(Buffer.concat([head, Buffer.alloc(sent, 0x20)]));
      }
      // Server frames are unmasked: opcode, then a 7-bit, 16-bit or 64-bit length.
      while (buffer.length >= 2) {
        const short = buffer[1]! & 0x7f;
        const offset = short === 126 ? 4 : short === 127 ? 10 : 2;
        const size = short === 126 ? buffer.readUInt16BE(2) : short === 127 ? Number(buffer.readBigUInt64BE(2)) : short;
        if (buffer.length < offset + size) return;
        if ((buffer[0]! & 0x0f) === 0x8) resolve(size >= 2 ? buffer.readUInt16BE(offset) : undefined);
        buffer = buffer.subarray(offset + size);
      }
    });
    socket.on("close", () => resolve(undefined));
  });
  socket.write(
    `GET /api/ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
  );
  try {
    return await closeCode;
  } finally {
    socket.destroy();
  }
}

const bridgeUpdate = (id: string, status: string) => (m: Message) =>
  m.type === "bridge_update" && m.bridgeId === id && (m.data as Bridge).status === status;

describe("WebSocket /api/ws on the real hub", { timeout: 60_000 }, () => {
  let sim: HaSimulator;
  let hub: Hub;
  let http: RunningHttpServer;
  let dataDir: Awaited<ReturnType<typeof tempDir>>;
  let base: string;
  let client: LiveClient;
  let bridgeId: string;

  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`http://${base}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };

  before(async () => {
    assertNetworkIsolated();
    sim = await startHaSimulator({ token: "t", home: createDemoHome(), motionMs: 0 });
    dataDir = await tempDir("hub-live-");
    const root = fileURLToPath(new URL("../..", import.meta.url));
    const config = loadHubConfig(
      { HUB_DATA_DIR: dataDir.path, HA_URL: sim.url, HA_TOKEN: "t", HUB_HOST: "127.0.0.1", HUB_PORT: "0" },
      root,
    );
    // Not an object literal: `livePingIntervalMs` is a HubOptions field added by the live channel's wiring.
    const options = { config, log: silentLogger(), logRing: new LogRing(), version: "9.9.9", livePingIntervalMs: PING_MS };
    hub = await createHub({ ...options, haRunningPollMs: 100 });
    http = await hub.listen();
    hub.start();
    await hub.ctx.homeAssistant.whenLoaded();
    base = `127.0.0.1:${http.port}`;
  });

  after(async () => {
    client?.close();
    await hub?.stop();
    await sim?.close();
    await dataDir?.remove();
  });

  it("sends bridges_update on connect and when a bridge is created, bridge_update on start and stop", async () => {
    client = await LiveClient.open(`ws://${base}/api/ws`);
    assert.deepEqual(await client.next(), { type: "bridges_update", data: [] });
    const port = await freeUdpPort();
    const filter = { include: [{ type: "entity_id", value: "switch.garden_pump" }] };
    const created = await call("POST", "/api/matter/bridges", { name: "Live", port, filter });
    assert.equal(created.status, 201);
    bridgeId = created.body.id;
    const listed = await client.next();
    assert.equal(listed.type, "bridges_update", "the list change comes first");
    assert.deepEqual(
      (listed.data as Bridge[]).map((b) => b.id),
      [bridgeId],
    );
    const running = await client.next(bridgeUpdate(bridgeId, "running"));
    assert.equal((running.data as Bridge).name, "Live");
    assert.equal((await call("POST", `/api/matter/bridges/${bridgeId}/actions/stop`)).status, 200);
    await client.next(bridgeUpdate(bridgeId, "stopped"), 5000);
    assert.equal((await call("POST", `/api/matter/bridges/${bridgeId}/actions/start`)).status, 200);
    await client.next(bridgeUpdate(bridgeId, "running"), 10_000);
  });

  it("subscribes to diagnostics: a snapshot, then live events, none after unsubscribing", async () => {
    client.send({ type: "subscribe_diagnostics" });
    const first = await client.next((m) => m.type.startsWith("diagnostic_"));
    assert.equal(first.type, "diagnostic_snapshot");
    const snapshot = first.data as { events: { type: string; bridgeId?: string }[]; summary: Record<string, unknown> };
    assert.ok(snapshot.events.some((e) => e.type === "bridge_running" && e.bridgeId === bridgeId));
    assert.equal(snapshot.summary.status, "healthy");
    assert.deepEqual(snapshot.summary.bridges, { total: 1, running: 1, stopped: 0, failed: 0 });

    await call("POST", `/api/matter/bridges/${bridgeId}/actions/stop`);
    const event = await client.next((m) => m.type === "diagnostic_event");
    const data = event.data as { id: number; time: string; type: string; bridgeId: string; message: string };
    assert.equal(data.type, "bridge_stopped");
    assert.equal(data.bridgeId, bridgeId);
    assert.match(data.message, /Live/);
    assert.ok(Number.isInteger(data.id) && !Number.isNaN(Date.parse(data.time)));

    client.send({ type: "unsubscribe_diagnostics" });
    await sleep(50);
    client.queue.length = 0;
    await call("POST", `/api/matter/bridges/${bridgeId}/actions/start`);
    await client.next(bridgeUpdate(bridgeId, "running"), 10_000);
    await sleep(200);
    assert.equal(client.queue.filter((m) => m.type.startsWith("diagnostic_")).length, 0, "no diagnostics after unsubscribing");
  });

  it("streams Home Assistant connection loss and recovery to diagnostics subscribers", async () => {
    client.send({ type: "subscribe_diagnostics" });
    await client.next((m) => m.type === "diagnostic_snapshot");
    sim.dropConnections();
    const lost = await client.next(
      (m) => m.type === "diagnostic_event" && (m.data as { type: string }).type === "ha_disconnected",
    );
    assert.equal((lost.data as { level: string }).level, "warn");
    await client.next((m) => m.type === "diagnostic_event" && (m.data as { type: string }).type === "ha_connected", 15_000);
    client.send({ type: "unsubscribe_diagnostics" });
    await sleep(50);
    client.queue.length = 0;
  });

  it("streams one bridge's device rows: a snapshot, then batched state changes, none after unsubscribing", async () => {
    client.send({ type: "subscribe_devices", bridgeId: "no-such-bridge" });
    const refused = await client.next((m) => m.type === "error");
    assert.match(String(refused.message), /Bridge not found: no-such-bridge/);

    client.send({ type: "subscribe_devices", bridgeId });
    const snapshot = await client.next((m) => m.type === "devices_snapshot");
    assert.equal(snapshot.bridgeId, bridgeId);
    const rows = (snapshot.data as { devices: { entityId: string; state: string }[]; pluginDevices: unknown[] }).devices;
    assert.deepEqual(
      rows.map((r) => r.entityId),
      ["switch.garden_pump"],
    );
    const next = rows[0]!.state === "on" ? "off" : "on";
    sim.setState("switch.garden_pump", next);
    const update = await client.next((m) => m.type === "devices_update");
    assert.equal(update.bridgeId, bridgeId);
    assert.deepEqual(
      (update.data as { entityId: string; state: string; reachable: boolean }[]).map(({ entityId, state, reachable }) => ({
        entityId,
        state,
        reachable,
      })),
      [{ entityId: "switch.garden_pump", state: next, reachable: true }],
    );
    // A burst is folded: many changes, at most a couple of messages.
    client.queue.length = 0;
    for (let i = 0; i < 20; i++) sim.setState("switch.garden_pump", i % 2 ? "on" : "off");
    await sleep(400);
    const burst = client.queue.filter((m) => m.type === "devices_update");
    assert.ok(burst.length >= 1 && burst.length <= 3, `${burst.length} messages for 20 changes`);
    assert.equal((burst.at(-1)!.data as { state: string }[])[0]!.state, "on", "the last message carries the last state");

    client.send({ type: "unsubscribe_devices" });
    await sleep(50);
    client.queue.length = 0;
    sim.setState("switch.garden_pump", "off");
    await sleep(300);
    assert.equal(client.queue.filter((m) => m.type.startsWith("devices_")).length, 0, "no rows after unsubscribing");
  });

  it("answers ping with pong, reports malformed and unknown messages without closing, and pings every interval", async () => {
    client.queue.length = 0;
    client.send({ type: "ping" });
    assert.deepEqual(await client.next((m) => m.type !== "bridge_update"), { type: "pong" });
    client.send("{not json");
    const malformed = await client.next((m) => m.type !== "bridge_update");
    assert.equal(malformed.type, "error");
    assert.match(String(malformed.message), /not JSON/);
    client.send({ type: "self_destruct" });
    const unknown = await client.next((m) => m.type !== "bridge_update");
    assert.equal(unknown.type, "error");
    assert.match(String(unknown.message), /Unknown message type/);
    const pingsBefore = client.pings;
    await sleep(PING_MS * 3);
    assert.ok(client.pings >= pingsBefore + 2, "server pings keep coming");
    assert.equal(client.socket.readyState, WebSocket.OPEN, "a client that answers stays connected");
  });

  it("drops a client that leaves two pings unanswered, at the next ping time", async () => {
    const dead = await LiveClient.open(`ws://${base}/api/ws`, { answerPings: false });
    const started = Date.now();
    await once(dead.socket, "close");
    const elapsed = Date.now() - started;
    assert.equal(dead.pings, 2, "two pings, then dropped");
    assert.ok(elapsed > PING_MS * 2 - 100 && elapsed < PING_MS * 4, `dropped after ${elapsed} ms`);
    assert.equal(client.socket.readyState, WebSocket.OPEN);
  });

  it("closes a socket whose frame announces more than 64 KiB with 1009 before reading it; other clients carry on", async () => {
    // 1 MiB announced, 1 KiB sent: the close comes from the frame's head, not after waiting for its payload.
    assert.equal(await announceFrame(http.port, 1024 * 1024, 1024), 1009);
    assert.equal(await announceFrame(http.port, 2 ** 40, 0), 1009);
    client.queue.length = 0;
    client.send({ type: "ping" });
    assert.deepEqual(await client.next((m) => m.type !== "bridge_update"), { type: "pong" });
    assert.equal((await call("GET", "/api/health/live")).status, 200);
  });

  it("refuses an upgrade from another site's page (403), accepts the hub's own page", async () => {
    const refused = new WebSocket(`ws://${base}/api/ws`, { origin: "http://evil.example" });
    refused.on("error", () => undefined);
    const [, response] = await Promise.race([
      once(refused, "unexpected-response"),
      once(refused, "open").then(() => assert.fail("the cross-site upgrade was accepted")),
    ]);
    assert.equal(response.statusCode, 403);
    response.resume();
    refused.terminate();
    const own = new WebSocket(`ws://${base}/api/ws`, { origin: `http://${base}` });
    const ownClient = await new Promise<Message>((resolve, reject) => {
      own.once("message", (raw) => resolve(JSON.parse(String(raw)) as Message));
      own.once("error", reject);
    });
    assert.equal(ownClient.type, "bridges_update");
    own.close();
  });

  it("refuses a plain GET, works with the ingress header, and requires Basic credentials once they are set", async () => {
    const plain = await call("GET", "/api/ws");
    assert.equal(plain.status, 426);
    assert.match(plain.body.error, /WebSocket/);
    const viaIngress = await LiveClient.open(`ws://${base}/api/ws`, { headers: { "X-Ingress-Path": "/api/hassio_ingress/abc" } });
    assert.equal((await viaIngress.next()).type, "bridges_update");
    viaIngress.close();

    assert.equal((await call("PUT", "/api/settings/auth", { username: "admin", password: "correct horse" })).status, 200);
    const good = { Authorization: basicAuthorization("admin", "correct horse") };
    try {
      const refused = new WebSocket(`ws://${base}/api/ws`);
      refused.on("error", () => undefined); // aborting the refused handshake reports one
      const [, response] = await once(refused, "unexpected-response");
      assert.equal(response.statusCode, 401);
      response.resume();
      refused.terminate();
      const allowed = await LiveClient.open(`ws://${base}/api/ws`, { headers: good });
      assert.equal((await allowed.next()).type, "bridges_update");
      allowed.close();
    } finally {
      assert.equal((await call("DELETE", "/api/settings/auth", undefined, good)).status, 200);
    }
  });
});
