import assert from "node:assert/strict";
import { once } from "node:events";
import { after, before, describe, it } from "node:test";
import { WebSocket } from "ws";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import type { EndpointInspection, InspectedAttribute, InspectedChange } from "../src/bridges/endpoint-inspection.ts";
import type { NodeId } from "./support/bridge-fixture.ts";
import type { TestController } from "./support/matter-controller.ts";
import { startPairedBridge } from "./support/paired-bridge.ts";
import { eventually } from "./support/test-context.ts";

const LAMP = "light.bedside_lamp";
const LOCK = "lock.front_door";
const PIN = "73915824";

type Message = { type: string; bridgeId?: string; endpointNumber?: number; data?: unknown; message?: string };

/** A live-channel client that answers pings and queues everything else. */
async function openLive(port: number) {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/api/ws`);
  const queue: Message[] = [];
  let wake: (() => void) | undefined;
  socket.on("message", (raw) => {
    const message = JSON.parse(String(raw)) as Message;
    if (message.type === "ping") socket.send(JSON.stringify({ type: "pong" }));
    else queue.push(message);
    wake?.();
  });
  await once(socket, "open");
  return {
    queue,
    send: (message: object) => socket.send(JSON.stringify(message)),
    /** The next message that matches, dropping the ones before it. */
    async next(match: (m: Message) => boolean, timeoutMs = 15_000): Promise<Message> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const message = queue.shift();
        if (message && match(message)) return message;
        if (message) continue;
        if (Date.now() > deadline) throw new Error("no matching live message in time");
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 50);
        });
      }
    },
    close: () => socket.close(),
  };
}

/** The change of one attribute an `endpoint_update` carries, if it carries it. */
function changeOf(m: Message, clusterId: number, attributeId: number): InspectedChange | undefined {
  if (m.type !== "endpoint_update") return undefined;
  const { attributes } = m.data as { attributes: InspectedChange[] };
  return attributes.find((a) => a.clusterId === clusterId && a.id === attributeId);
}

/** One attribute of an inspection, by cluster and attribute name. */
function attributeOf(inspection: EndpointInspection, cluster: string, attribute: string): InspectedAttribute {
  const found = inspection.clusters
    .find((c) => c.name === cluster && c.side === "server")
    ?.attributes.find((a) => a.name === attribute);
  assert.ok(found, `${cluster}.${attribute} in ${inspection.clusters.map((c) => c.name).join(", ")}`);
  return found;
}

/**
 * The device inspector over a real bridge paired with a real controller on loopback: what the inspector shows is what
 * the controller reads, it follows Home Assistant's changes (by REST and live), and it never shows a lock's PIN.
 */
describe("Device inspector on a running bridge", { timeout: 180_000 }, () => {
  let world: Awaited<ReturnType<typeof startPairedBridge>>;
  let call: Awaited<ReturnType<typeof startPairedBridge>>["call"];
  let controller: TestController;
  let nodeId: NodeId;
  let bridgeId: string;
  const inspect = (entityId: string) =>
    call<EndpointInspection>("GET", `/api/matter/bridges/${bridgeId}/devices/${encodeURIComponent(entityId)}/inspect`);

  before(async () => {
    assertNetworkIsolated();
    world = await startPairedBridge([LAMP, LOCK, "sensor.front_door_lock_battery", "switch.garden_pump"]);
    ({ call, controller, nodeId } = world);
    bridgeId = world.bridge.id;
  });
  after(async () => {
    await world?.close();
  });

  it("shows a light's endpoint, device types, clusters and values as the controller reads them", async () => {
    const { status, body } = await inspect(LAMP);
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.endpointNumber, world.ep(LAMP));
    assert.equal(body.entityId, LAMP);
    const types = body.deviceTypes.map((t) => t.name);
    assert.ok(types.includes("BridgedNode"), types.join());
    assert.ok(
      types.some((t) => /Light/.test(t)),
      types.join(),
    );
    const controllerTypes = (await controller.read(nodeId, body.endpointNumber, "descriptor", "deviceTypeList")) as {
      deviceType: number;
    }[];
    assert.deepEqual(
      body.deviceTypes.map((t) => t.id),
      controllerTypes.map((t) => t.deviceType),
    );

    const onOff = body.clusters.find((c) => c.name === "OnOff");
    assert.equal(onOff?.id, 6);
    assert.ok(onOff?.features.includes("Lighting"), JSON.stringify(onOff?.features));
    assert.equal(onOff?.featureMap, 1, "Lighting is bit 0");
    assert.deepEqual(attributeOf(body, "OnOff", "OnOff"), {
      id: 0,
      name: "OnOff",
      type: "bool",
      value: false,
      text: "false",
      truncated: false,
      hidden: null,
    });
    const level = attributeOf(body, "LevelControl", "CurrentLevel");
    assert.equal(level.value, await controller.read(nodeId, body.endpointNumber, "levelControl", "currentLevel"));
    assert.equal(attributeOf(body, "LevelControl", "Options").text, "none");
    assert.match(attributeOf(body, "OnOff", "AcceptedCommandList").text, /Off \(0x00\), On \(0x01\), Toggle \(0x02\)/);
    const label = attributeOf(body, "BridgedDeviceBasicInformation", "NodeLabel");
    assert.equal(label.value, await controller.read(nodeId, body.endpointNumber, "bridgedDeviceBasicInformation", "nodeLabel"));
  });

  it("follows a Home Assistant change: the inspector reads the node's new values", async () => {
    world.sim.setState(LAMP, "on", { brightness: 128, color_mode: "color_temp", color_temp_kelvin: 3000 });
    const after = await eventually(async () => {
      const { body } = await inspect(LAMP);
      return attributeOf(body, "OnOff", "OnOff").value === true ? body : undefined;
    }, 10_000);
    const level = attributeOf(after, "LevelControl", "CurrentLevel").value;
    assert.equal(level, await controller.read(nodeId, after.endpointNumber, "levelControl", "currentLevel"));
    assert.ok(typeof level === "number" && Math.abs(level - 127) <= 1, String(level));
  });

  it("answers 404 in the spec's error shape for an unknown device, endpoint or bridge, and 400 for a bad number", async () => {
    const unknown = await inspect("light.not_on_this_bridge");
    assert.equal(unknown.status, 404);
    assert.deepEqual(Object.keys(unknown.body), ["error"]);
    assert.match((unknown.body as unknown as { error: string }).error, /light\.not_on_this_bridge/);
    const composed = await inspect("sensor.front_door_lock_battery");
    assert.equal(composed.status, 404);
    assert.match((composed.body as unknown as { error: string }).error, /part of lock\.front_door/);
    const noEndpoint = await call("GET", `/api/matter/bridges/${bridgeId}/endpoints/4242`);
    assert.equal(noEndpoint.status, 404);
    assert.deepEqual(Object.keys(noEndpoint.body ?? {}), ["error"]);
    const badNumber = await call("GET", `/api/matter/bridges/${bridgeId}/endpoints/65535`);
    assert.equal(badNumber.status, 400);
    // A stopped bridge has no node to read: 400, saying so.
    const stopped = await call<{ id: string }>("POST", "/api/matter/bridges", {
      name: "Stopped",
      port: world.bridge.port + 1,
      autoStart: false,
      filter: { include: [{ type: "entity_id", value: LAMP }] },
    });
    assert.equal(stopped.status, 201, JSON.stringify(stopped.body));
    const notRunning = await call("GET", `/api/matter/bridges/${stopped.body.id}/devices/${LAMP}/inspect`);
    assert.equal(notRunning.status, 400);
    assert.match((notRunning.body as { error: string }).error, /stopped: its devices can be inspected while it runs/);
    const noBridge = await call("GET", `/api/matter/bridges/bnope/devices/${LAMP}/inspect`);
    assert.equal(noBridge.status, 404);
    assert.deepEqual(Object.keys(noBridge.body ?? {}), ["error"]);
  });

  it("never shows a lock's PIN or credentials, and says which values it leaves out", async () => {
    const set = await call("PUT", `/api/lock-credentials/${LOCK}`, { pin: PIN });
    assert.equal(set.status, 201, JSON.stringify(set.body));
    const lock = await eventually(async () => {
      const { body } = await inspect(LOCK);
      return attributeOf(body, "DoorLock", "RequirePinForRemoteOperation").value === true ? body : undefined;
    }, 10_000);
    const text = JSON.stringify(lock);
    assert.ok(!text.includes(PIN), "the PIN is nowhere in the answer");
    assert.ok(!/"(users|credentials|pinCode|pinHash)"/.test(text), "no behaviour state beside the cluster's attributes");
    assert.equal(attributeOf(lock, "DoorLock", "LockState").text, "Locked (1)");
    assert.equal(attributeOf(lock, "DoorLock", "MinPinCodeLength").value, 4);
    // The root endpoint: what needs Administer privilege (certificates, access control) is named but not shown.
    const root = await call<EndpointInspection>("GET", `/api/matter/bridges/${bridgeId}/endpoints/0`);
    assert.equal(root.status, 200);
    const nocs = attributeOf(root.body, "OperationalCredentials", "Nocs");
    assert.equal(nocs.value, null);
    assert.match(nocs.hidden ?? "", /Administer privilege/);
    assert.match(attributeOf(root.body, "AccessControl", "Acl").hidden ?? "", /Administer privilege/);
    assert.ok(root.body.parts.includes(world.ep(LOCK)), JSON.stringify(root.body.parts));
  });

  it("pushes the inspected endpoint's changes live, only for that endpoint, and follows a bridge restart", async () => {
    const http = await world.hub.hub.listen();
    const live = await openLive(http.port);
    try {
      const lamp = world.ep(LAMP);
      live.send({ type: "subscribe_endpoint", bridgeId, endpointNumber: lamp });
      const snapshot = await live.next((m) => m.type === "endpoint_snapshot");
      const first = snapshot.data as EndpointInspection;
      assert.equal(first.endpointNumber, lamp);
      assert.equal(attributeOf(first, "OnOff", "OnOff").value, true, "the lamp was turned on by the test before");

      // Another endpoint changes: nothing is sent for it (checked once the node has it and the socket is drained).
      const pump = world.ep("switch.garden_pump");
      const pumpWasOn = world.sim.getState("switch.garden_pump")?.state === "on";
      world.sim.setState("switch.garden_pump", pumpWasOn ? "off" : "on");
      await eventually(async () => (await controller.read(nodeId, pump, "onOff", "onOff")) === !pumpWasOn, 10_000);
      live.send({ type: "ping" });
      await live.next((m) => m.type === "pong");
      assert.ok(!live.queue.some((m) => m.type.startsWith("endpoint_")), JSON.stringify(live.queue));
      // The inspected lamp changes: its new values arrive, read from the node.
      world.sim.setState(LAMP, "off");
      const update = await live.next((m) => changeOf(m, 6, 0) !== undefined);
      assert.equal(update.endpointNumber, lamp);
      assert.deepEqual(changeOf(update, 6, 0), {
        clusterId: 6,
        id: 0,
        name: "OnOff",
        type: "bool",
        value: false,
        text: "false",
        truncated: false,
        hidden: null,
      });

      // A restart: the inspector gets a snapshot from the new node and follows it.
      assert.equal((await call("POST", `/api/matter/bridges/${bridgeId}/actions/restart`)).status, 200);
      const again = await live.next((m) => m.type === "endpoint_snapshot" && m.data !== null);
      assert.equal((again.data as EndpointInspection).endpointNumber, lamp);
      world.sim.setState(LAMP, "on", { brightness: 200 });
      await live.next((m) => changeOf(m, 6, 0)?.value === true);

      // Unsubscribed: the lamp's next change is not sent.
      live.send({ type: "unsubscribe_endpoint" });
      world.sim.setState(LAMP, "off");
      await eventually(async () => attributeOf((await inspect(LAMP)).body, "OnOff", "OnOff").value === false, 10_000);
      live.send({ type: "ping" });
      await live.next((m) => m.type === "pong");
      assert.ok(!live.queue.some((m) => m.type.startsWith("endpoint_")), JSON.stringify(live.queue));

      // A bad subscription is answered with an error; the socket stays open.
      live.send({ type: "subscribe_endpoint", bridgeId, endpointNumber: -1 });
      assert.match((await live.next((m) => m.type === "error")).message ?? "", /endpointNumber/);
    } finally {
      live.close();
    }
  });
});
