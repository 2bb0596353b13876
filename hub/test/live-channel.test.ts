import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { memoryLogger } from "../../lib/testing/fixtures.ts";
import type { BridgeService } from "../src/bridges/bridge-service.ts";
import { DiagnosticBus } from "../src/diagnostics/diagnostic-bus.ts";
import { LiveChannel } from "../src/live/live-channel.ts";
import type { LiveSocket } from "../src/live/live-protocol.ts";

/** A bridge service stand-in: the channel only uses list(), record() and the two events. */
class FakeBridges extends EventEmitter<{ changed: [string]; listChanged: [] }> {
  readonly records = new Map<string, { id: string; status: string }>();
  list() {
    return [...this.records.values()].map((r) => ({ ...r }));
  }
  record(id: string) {
    const record = this.records.get(id);
    if (!record) throw new Error("not found");
    return { ...record };
  }
}

class FakeSocket implements LiveSocket {
  readonly sent: Record<string, unknown>[] = [];
  isOpen = true;
  bufferedAmount = 0;
  closedWith: number | "terminated" | undefined;
  send(text: string) {
    this.sent.push(JSON.parse(text));
  }
  close(code: number) {
    this.closedWith = code;
    this.isOpen = false;
  }
  terminate() {
    this.closedWith = "terminated";
    this.isOpen = false;
  }
  types() {
    return this.sent.map((m) => m.type);
  }
}

function setup(options: { pingIntervalMs?: number; coalesceMs?: number; maxClients?: number } = {}) {
  const bridges = new FakeBridges();
  bridges.records.set("b1", { id: "b1", status: "stopped" });
  const diagnostics = new DiagnosticBus(3);
  const channel = new LiveChannel({
    bridges: bridges as unknown as BridgeService,
    diagnostics,
    summary: () => ({ status: "healthy" }),
    log: memoryLogger().log,
    ...options,
  });
  return { bridges, diagnostics, channel };
}

describe("live channel (unit)", () => {
  it("greets with the list, coalesces bursts per bridge without delaying a single change, and follows list changes", async () => {
    const { bridges, channel } = setup({ coalesceMs: 80 });
    const socket = new FakeSocket();
    channel.attach(socket);
    assert.deepEqual(socket.sent[0], { type: "bridges_update", data: [{ id: "b1", status: "stopped" }] });
    const record = bridges.records.get("b1")!;
    record.status = "starting";
    bridges.emit("changed", "b1");
    assert.deepEqual(socket.sent[1], { type: "bridge_update", bridgeId: "b1", data: { id: "b1", status: "starting" } });
    for (const status of ["starting", "starting", "running"]) {
      record.status = status;
      bridges.emit("changed", "b1");
    }
    assert.equal(socket.sent.length, 2, "the burst waits for the end of the window");
    await sleep(150);
    assert.deepEqual(socket.sent.slice(2), [{ type: "bridge_update", bridgeId: "b1", data: { id: "b1", status: "running" } }]);
    bridges.records.set("b2", { id: "b2", status: "stopped" });
    bridges.emit("listChanged");
    assert.equal(socket.sent.at(-1)?.type, "bridges_update");
    assert.equal((socket.sent.at(-1)!.data as unknown[]).length, 2);
    bridges.records.delete("b2");
    bridges.emit("changed", "b2"); // a late change of a deleted bridge: nothing to send
    await sleep(100);
    assert.equal(socket.sent.at(-1)?.type, "bridges_update");
    channel.close();
    assert.equal(socket.closedWith, 1001);
  });

  it("answers ping, reports malformed, unknown, binary and oversized frames, and keeps the socket open for all but the last", () => {
    const { channel } = setup();
    const socket = new FakeSocket();
    const connection = channel.attach(socket);
    connection.receive(JSON.stringify({ type: "ping" }));
    connection.receive("{nope");
    connection.receive(JSON.stringify({ type: "launch" }));
    connection.receive(JSON.stringify(["ping"]));
    connection.receive(new ArrayBuffer(4));
    connection.receive(JSON.stringify({ type: "pong" }));
    assert.deepEqual(socket.types(), ["bridges_update", "pong", "error", "error", "error", "error"]);
    assert.match(String(socket.sent[3]?.message), /Unknown message type "launch"/);
    assert.equal(socket.isOpen, true);
    connection.receive(JSON.stringify({ type: "ping", padding: "x".repeat(5000) }));
    assert.equal(socket.closedWith, 1009);
    assert.equal(channel.clientCount, 0);
    channel.close();
  });

  it("sends a snapshot then each event to subscribers only, until they unsubscribe", () => {
    const { channel, diagnostics } = setup();
    for (const n of [1, 2, 3, 4]) diagnostics.publish({ type: "command", level: "info", message: `call ${n}` });
    const subscriber = new FakeSocket();
    const bystander = new FakeSocket();
    const connection = channel.attach(subscriber);
    channel.attach(bystander);
    connection.receive(JSON.stringify({ type: "subscribe_diagnostics" }));
    const snapshot = subscriber.sent[1] as { type: string; data: { events: { message: string }[]; summary: unknown } };
    assert.equal(snapshot.type, "diagnostic_snapshot");
    assert.deepEqual(
      snapshot.data.events.map((e) => e.message),
      ["call 2", "call 3", "call 4"],
      "the ring keeps the most recent, oldest first",
    );
    assert.deepEqual(snapshot.data.summary, { status: "healthy" });
    diagnostics.publish({ type: "ha_disconnected", level: "warn", message: "gone" });
    assert.equal(subscriber.sent.at(-1)?.type, "diagnostic_event");
    assert.equal((subscriber.sent.at(-1)!.data as { message: string }).message, "gone");
    connection.receive(JSON.stringify({ type: "unsubscribe_diagnostics" }));
    diagnostics.publish({ type: "ha_connected", level: "info", message: "back" });
    assert.equal(subscriber.sent.filter((m) => m.type === "diagnostic_event").length, 1);
    assert.deepEqual(bystander.types(), ["bridges_update"]);
    connection.closed();
    assert.equal(diagnostics.listenerCount, 0, "nothing left behind");
    channel.close();
  });

  it("pings every interval and drops clients that leave two pings unanswered, slow readers, and clients beyond the limit", async () => {
    const { channel } = setup({ pingIntervalMs: 60, maxClients: 3 });
    const silent = new FakeSocket();
    const answering = new FakeSocket();
    const slow = new FakeSocket();
    channel.attach(silent);
    const live = channel.attach(answering);
    channel.attach(slow);
    const extra = new FakeSocket();
    channel.attach(extra);
    assert.equal(extra.closedWith, 1013);
    slow.bufferedAmount = 2 * 1024 * 1024;
    const answer = setInterval(() => live.receive(JSON.stringify({ type: "pong" })), 30);
    try {
      await sleep(250);
    } finally {
      clearInterval(answer);
    }
    assert.ok(silent.types().includes("ping"), "the silent client was pinged first");
    assert.equal(silent.closedWith, "terminated");
    assert.equal(slow.closedWith, "terminated");
    assert.equal(answering.isOpen, true);
    assert.ok(answering.types().filter((t) => t === "ping").length >= 3);
    assert.equal(channel.clientCount, 1);
    channel.close();
  });
});
