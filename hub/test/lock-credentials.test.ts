import assert from "node:assert/strict";
import { readFile, stat } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import type { Hono } from "hono";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import { createDemoHome, type HaSimulator, startHaSimulator } from "../../simulators/home-assistant/index.ts";
import { type NodeId, startController } from "./support/bridge-fixture.ts";
import type { TestController } from "./support/matter-controller.ts";
import { freeUdpPort } from "./support/matter-fixtures.ts";
import { createTestHub, eventually } from "./support/test-context.ts";

/** Eight digits: a shorter PIN could turn up by chance in a port number or a timestamp of the log. */
const PIN = "52907318";
const PIN_HEX = Buffer.from(PIN).toString("hex");
const LOCK = "lock.front_door";

/**
 * The real hub (createHub, as main.ts builds it) over the HA simulator's demo home, with one bridge exposing the front
 * door lock, created and driven through the HTTP API. Only the PIN brake's clock is tuned (to step over its lockout).
 */
async function startLockWorld() {
  const sim = await startHaSimulator({ token: "t", home: createDemoHome(), motionMs: 0 });
  // The brake's clock runs `skewMs` ahead, so the test can step over the 60 s lockout.
  const clock = { skewMs: 0 };
  const hub = await createTestHub({
    ha: { url: sim.url, token: "t" },
    start: true,
    hubOptions: { lockBrakeNow: () => Date.now() + clock.skewMs },
  });
  await hub.homeAssistant.whenLoaded();
  const credentials = hub.ctx.lockCredentials;
  // Counts the DoorLock endpoints' subscriptions to credential changes: a closed endpoint must end its own.
  const { requirement } = credentials.pinCheck;
  const subscribe = requirement.onChange.bind(requirement);
  let subscriptions = 0;
  requirement.onChange = (listener) => {
    const off = subscribe(listener);
    subscriptions++;
    return () => {
      subscriptions--;
      off();
    };
  };
  const port = await freeUdpPort();
  const request = async <T>(method: string, path: string, body?: unknown) => {
    const response = await hub.app.request(path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    assert.ok(response.status < 300, `${method} ${path}: ${response.status}`);
    return (await response.json()) as T;
  };
  const created = await request<{ id: string }>("POST", "/api/matter/bridges", {
    name: "Lock bridge",
    port,
    autoStart: false,
    filter: { include: [{ type: "entity_id", value: LOCK }], exclude: [] },
  });
  const record = () =>
    request<{ status: string; statusReason: string | null; commissioning: { manualPairingCode: string } }>(
      "GET",
      `/api/matter/bridges/${created.id}`,
    );
  const bridge = {
    async start() {
      await request("POST", `/api/matter/bridges/${created.id}/actions/start`);
      await eventually(async () => (await record()).status === "running", 30_000);
    },
    async stop() {
      await request("POST", `/api/matter/bridges/${created.id}/actions/stop`);
    },
    record,
    async devices() {
      return (
        await request<{ devices: { entityId: string; endpointNumber: number | null }[] }>(
          "GET",
          `/api/matter/bridges/${created.id}/devices`,
        )
      ).devices;
    },
  };
  return {
    sim,
    bridge,
    port,
    app: hub.app,
    credentials,
    clock,
    subscriptions: () => subscriptions,
    logLines: hub.logLines,
    async close() {
      await hub.stop();
      await sim.close();
    },
  };
}

/** Every response body the tests saw, to prove none carries the PIN. */
const seen: string[] = [];

function api(app: Hono) {
  return async <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => {
    // The collection itself is `/api/lock-credentials`, without a trailing slash.
    const response = await app.request(`/api/lock-credentials${path === "/" ? "" : path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await response.text();
    seen.push(text);
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
  };
}

function assertNoPin(where: string, texts: string[]) {
  for (const text of texts) {
    assert.ok(!text.includes(PIN) && !text.toLowerCase().includes(PIN_HEX), `${where} contains the PIN: ${text.slice(0, 200)}`);
  }
}

describe("lock credentials (HTTP API, PIN checks by a matter.js controller)", { timeout: 120_000 }, () => {
  let world: Awaited<ReturnType<typeof startLockWorld>>;
  let sim: HaSimulator;
  let call: ReturnType<typeof api>;
  let controller: TestController;
  let closeController: () => Promise<void>;
  let nodeId: NodeId;
  let endpoint: number;

  before(async () => {
    assertNetworkIsolated();
    world = await startLockWorld();
    sim = world.sim;
    call = api(world.app);
    await world.bridge.start();
    ({ controller, close: closeController } = await startController());
    const { commissioning } = await world.bridge.record();
    nodeId = await controller.commission(commissioning.manualPairingCode, { ip: "::1", port: world.port });
    endpoint = (await world.bridge.devices()).find((d) => d.entityId === LOCK)?.endpointNumber as number;
    assert.ok(endpoint, `${LOCK} is exposed`);
  });
  after(async () => {
    await closeController?.();
    await world?.close();
  });

  const unlock = (pin?: string) =>
    controller.invoke(nodeId, endpoint, "doorLock", "unlockDoor", pin === undefined ? {} : { pinCode: Buffer.from(pin) });
  const lock = () => controller.invoke(nodeId, endpoint, "doorLock", "lockDoor", {});
  const haCalls = (service: string) => sim.calls.filter((c) => c.service === service && c.entityIds.includes(LOCK)).length;
  const read = (attribute: string) => controller.read(nodeId, endpoint, "doorLock", attribute);

  /** Unlock must fail at the controller and leave HA alone. */
  const expectRefused = async (pin?: string) => {
    sim.clearCalls();
    // Status 1 is FAILURE, what the DoorLock behavior answers for a missing or wrong PIN.
    await assert.rejects(unlock(pin), /non-success result: 1$/);
    assert.equal(haCalls("unlock"), 0, "no lock.unlock reached Home Assistant");
  };
  const expectUnlocked = async (pin?: string) => {
    sim.clearCalls();
    await unlock(pin);
    await sim.waitForCall((c) => c.service === "unlock" && c.entityIds.includes(LOCK), 5000);
  };

  it("answers 404/400 in the hub's error shape and never echoes a PIN", async () => {
    assert.deepEqual((await call("GET", "/")).body, { credentials: [] });
    const missing = await call("GET", `/${LOCK}`);
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { error: `No lock credential for ${LOCK}` });
    for (const [method, path, body] of [
      ["PATCH", `/${LOCK}/enabled`, { enabled: false }],
      ["DELETE", `/${LOCK}`, undefined],
    ] as const) {
      const response = await call(method, path, body);
      assert.equal(response.status, 404, `${method} ${path}`);
      assert.equal(typeof response.body.error, "string");
    }
    const bad: [string, unknown, RegExp][] = [
      ["/light.kitchen_ceiling", { pin: PIN }, /Not a lock entity id/],
      [`/${LOCK}`, { pin: "123" }, /pin must be a string of 4 to 8 digits/],
      [`/${LOCK}`, { pin: `${PIN}9` }, /pin must be a string of 4 to 8 digits/],
      [`/${LOCK}`, { pin: "12ab" }, /pin must be a string of 4 to 8 digits/],
      [`/${LOCK}`, { pin: Number(PIN) }, /pin must be a string of 4 to 8 digits/],
      [`/${LOCK}`, {}, /pin/],
      [`/${LOCK}`, { pin: PIN, enabled: "yes" }, /enabled must be true or false/],
      [`/${LOCK}`, { pin: PIN, enable: false }, /nothing else/],
      [`/${LOCK}`, `{"pin": "${PIN}"`, /Malformed JSON/],
    ];
    for (const [path, body, message] of bad) {
      const response = await call<{ error: string }>("PUT", path, body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.deepEqual(Object.keys(response.body), ["error"]);
      assert.match(response.body.error, message);
    }
    const patch = await call<{ error: string }>("PATCH", `/${LOCK}/enabled`, { enabled: "no" });
    assert.equal(patch.status, 400);
    assert.match(patch.body.error, /enabled must be true or false/);
    assertNoPin("a response", seen);
    assert.deepEqual((await call("GET", "/")).body, { credentials: [] }, "nothing was stored");
  });

  it("advertises the PIN feature; with no credential, unlock needs no PIN", async () => {
    // These attributes exist only with the PinCredential (+ CredentialOverTheAirAccess) features.
    assert.equal(await read("requirePinForRemoteOperation"), false);
    assert.equal(await read("minPinCodeLength"), 4);
    assert.equal(await read("maxPinCodeLength"), 8);
    assert.equal(await read("wrongCodeEntryLimit"), 5);
    assert.equal(await read("userCodeTemporaryDisableTime"), 60);
    await expectUnlocked();
  });

  it("after PUT a PIN: no PIN or a wrong one fails without an HA call, the right one unlocks; lock needs none", async () => {
    const created = await call("PUT", `/${LOCK}`, { pin: PIN });
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.body).sort(), [
      "createdAt",
      "enabled",
      "entityId",
      "failedAttempts",
      "hasPin",
      "lastUsedAt",
      "lockedOutUntil",
      "updatedAt",
    ]);
    assert.deepEqual(
      { ...created.body, createdAt: 0, updatedAt: 0 },
      {
        entityId: LOCK,
        enabled: true,
        hasPin: true,
        createdAt: 0,
        updatedAt: 0,
        lastUsedAt: null,
        failedAttempts: 0,
        lockedOutUntil: null,
      },
    );
    // Live: no bridge restart, the endpoint's attribute follows.
    assert.equal(await read("requirePinForRemoteOperation"), true);
    await expectRefused();
    await expectRefused("00000000");
    await expectUnlocked(PIN);
    sim.clearCalls();
    await lock();
    await sim.waitForCall((c) => c.service === "lock" && c.entityIds.includes(LOCK), 5000);
    const after = await call("GET", `/${LOCK}`);
    assert.equal(after.status, 200);
    assert.equal(after.body.failedAttempts, 0);
    assert.equal(typeof after.body.lastUsedAt, "string");
    const listed = await call<{ credentials: { entityId: string; hasPin: boolean }[] }>("GET", "/");
    assert.deepEqual(
      listed.body.credentials.map((c) => [c.entityId, c.hasPin]),
      [[LOCK, true]],
    );
  });

  it("refuses a controller's write of the PIN requirement", async () => {
    // 0x88 UNSUPPORTED_WRITE: the attribute is R[W], and the hub's credentials, not controllers, decide it.
    const unsupportedWrite = (error: Error & { code?: number }) => error.code === 0x88;
    await assert.rejects(controller.write(nodeId, endpoint, "doorLock", "requirePinForRemoteOperation", false), unsupportedWrite);
    await assert.rejects(controller.write(nodeId, endpoint, "doorLock", "wrongCodeEntryLimit", 255), unsupportedWrite);
    assert.equal(await read("requirePinForRemoteOperation"), true);
    assert.equal(await read("wrongCodeEntryLimit"), 5);
  });

  it("disable → no PIN needed again; enable → needed; a replaced PIN applies at once", async () => {
    const disabled = await call("PATCH", `/${LOCK}/enabled`, { enabled: false });
    assert.equal(disabled.status, 200);
    assert.equal(disabled.body.enabled, false);
    assert.equal(await read("requirePinForRemoteOperation"), false);
    await expectUnlocked();
    assert.equal((await call("PATCH", `/${LOCK}/enabled`, { enabled: true })).body.enabled, true);
    assert.equal(await read("requirePinForRemoteOperation"), true);
    await expectRefused();
    const replaced = await call("PUT", `/${LOCK}`, { pin: "2468" });
    assert.equal(replaced.status, 200);
    await expectRefused(PIN);
    await expectUnlocked("2468");
    assert.equal((await call("PUT", `/${LOCK}`, { pin: PIN })).status, 200);
  });

  it("brake: after 5 wrong PINs the right one is refused for 60 s, then accepted", async () => {
    for (let i = 0; i < 5; i++) await expectRefused("11111111");
    const view = await call("GET", `/${LOCK}`);
    assert.equal(view.body.failedAttempts, 5);
    assert.equal(typeof view.body.lockedOutUntil, "string");
    await expectRefused(PIN);
    assert.ok(world.logLines().some((line) => line.includes(`too many wrong PINs for ${LOCK}`)));
    world.clock.skewMs = 60_001;
    await expectUnlocked(PIN);
    assert.equal((await call("GET", `/${LOCK}`)).body.lockedOutUntil, null);
  });

  it("a restarted bridge advertises the requirement from the start; a stopped one leaves no subscription", async () => {
    assert.equal(world.subscriptions(), 1);
    await world.bridge.stop();
    assert.equal(world.subscriptions(), 0);
    await world.bridge.start();
    assert.equal(world.subscriptions(), 1);
    await eventually(async () => (await read("requirePinForRemoteOperation")) === true, 10_000, 100);
    await expectRefused();
  });

  it("DELETE → 204, unlock needs no PIN; the PIN never reached a response, the log or the file", async () => {
    const file = await readFile(world.credentials.path, "utf8");
    assert.match(file, /"pinHash": "scrypt\$32768\$8\$1\$/);
    assert.equal((await stat(world.credentials.path)).mode & 0o777, 0o600);
    const deleted = await call("DELETE", `/${LOCK}`);
    assert.equal(deleted.status, 204);
    assert.equal((await call("GET", `/${LOCK}`)).status, 404);
    assert.equal(await read("requirePinForRemoteOperation"), false);
    await expectUnlocked();
    assertNoPin("the credentials file", [file]);
    assertNoPin("a response", seen);
    const hubLines = world.logLines().filter((line) => !line.includes('"facility":'));
    assert.ok(hubLines.some((line) => line.includes(`remote unlock of ${LOCK} refused: wrong PIN`)));
    assertNoPin("a hub log line", hubLines);
  });

  it("matter.js's own log lines (forwarded into the hub log at debug) never carry the PIN", () => {
    const matterLines = world.logLines().filter((line) => line.includes('"facility":'));
    assert.ok(matterLines.length > 100, "matter.js logs were captured");
    assertNoPin("a matter.js log line", matterLines);
  });
});
