import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { callService, getConfig, type HassEntities, subscribeEntities } from "home-assistant-js-websocket";
import { WebSocket } from "ws";
import { generateHome } from "./generate-home.ts";
import { startHaSimulator } from "./simulator.ts";
import { connectClient, until } from "./test-helpers.ts";

describe("HA simulator: connection faults and scripted failures", () => {
  it("drops connections; the library reconnects and resubscribes, and sees changes made meanwhile", async () => {
    const sim = await startHaSimulator({ token: "t", home: generateHome(40, 3) });
    const conn = await connectClient(sim);
    try {
      let entities: HassEntities = {};
      subscribeEntities(conn, (next) => {
        entities = next;
      });
      await until(() => Object.keys(entities).length === 40);
      let disconnected = 0;
      conn.addEventListener("disconnected", () => disconnected++);
      const sensor = Object.keys(entities).find((id) => id.startsWith("sensor."));
      assert.ok(sensor);

      sim.dropConnections();
      sim.setState(sensor, "4242");
      await until(() => disconnected === 1);
      await until(() => entities[sensor]?.state === "4242", 2000, "the resubscription's snapshot");
      assert.equal(sim.connectionCount(), 1);
      sim.setState(sensor, "4343");
      await until(() => entities[sensor]?.state === "4343");
    } finally {
      conn.close();
      await sim.close();
    }
  });

  it("refuses new connections for a while with HTTP 502, then accepts them again", async () => {
    const sim = await startHaSimulator({ token: "t", home: generateHome(5, 3) });
    try {
      const windowEnds = Date.now() + 1000;
      sim.refuseConnections(1000);
      assert.equal((await fetch(`${sim.url}/api/`)).status, 502);
      const refused = new WebSocket(`${sim.url.replace("http", "ws")}/api/websocket`);
      const outcome = await new Promise<string>((resolve) => {
        refused.once("error", (error) => resolve(error.message));
        refused.once("open", () => resolve("opened"));
      });
      assert.match(outcome, /Unexpected server response: 502/);
      // The window can end early too: a new call replaces it.
      sim.refuseConnections(0);
      assert.ok(Date.now() < windowEnds);
      const conn = await connectClient(sim);
      assert.equal(sim.connectionCount(), 1);
      conn.close();
    } finally {
      await sim.close();
    }
  });

  it("restarts: NOT_RUNNING for a while, then RUNNING with homeassistant_started", async () => {
    const sim = await startHaSimulator({ token: "t", home: generateHome(10, 1) });
    const conn = await connectClient(sim);
    try {
      const started: string[] = [];
      await conn.subscribeEvents<{ event_type: string }>((event) => started.push(event.event_type), "homeassistant_started");
      let ready = 0;
      conn.addEventListener("ready", () => ready++);
      await sim.restart({ notRunningMs: 600 });
      await until(() => ready === 1, 2000, "reconnect");
      assert.equal((await getConfig(conn)).state, "NOT_RUNNING");
      await until(() => started.length === 1, 2000, "homeassistant_started on the resubscribed listener");
      assert.equal((await getConfig(conn)).state, "RUNNING");
    } finally {
      conn.close();
      await sim.close();
    }
  });

  it("delays or fails service calls on request, for matching calls only", async () => {
    const sim = await startHaSimulator({ token: "t", home: generateHome(30, 2), motionMs: 0 });
    const conn = await connectClient(sim);
    try {
      const light = sim.getStates().find((s) => s.entity_id.startsWith("light."))?.entity_id as string;
      const plug = sim.getStates().find((s) => s.entity_id.startsWith("switch."))?.entity_id as string;
      const before = sim.getState(light);
      sim.setServiceBehavior({
        fail: { code: "home_assistant_error", message: "Device is offline" },
        match: (call) => call.domain === "light",
      });
      await assert.rejects(callService(conn, "light", "toggle", undefined, { entity_id: light }), {
        code: "home_assistant_error",
        message: "Device is offline",
      });
      assert.deepEqual(sim.getState(light), before, "a failed call has no effect");
      await callService(conn, "switch", "turn_on", undefined, { entity_id: plug });
      assert.equal(sim.getState(plug)?.state, "on", "other calls are untouched");

      sim.setServiceBehavior({ delayMs: 150 });
      const begun = Date.now();
      await callService(conn, "switch", "turn_off", undefined, { entity_id: plug });
      assert.ok(Date.now() - begun >= 140, "the answer waited");
      assert.equal(sim.getState(plug)?.state, "off");
      sim.setServiceBehavior(undefined);
      assert.equal(sim.calls.length, 3, "every call is recorded, failed or delayed");
    } finally {
      conn.close();
      await sim.close();
    }
  });

  it("closes sessions of a replaced token; the old token is then refused", async () => {
    const sim = await startHaSimulator({ token: "old", home: generateHome(5, 1) });
    const conn = await connectClient(sim);
    try {
      let reconnectError: unknown;
      conn.addEventListener("reconnect-error", (_conn, error) => {
        reconnectError = error;
      });
      sim.setToken("new");
      await until(() => reconnectError !== undefined, 3000, "the reconnect to fail");
      assert.equal(reconnectError, 2, "ERR_INVALID_AUTH");
      const fresh = await connectClient(sim, "new");
      fresh.close();
    } finally {
      conn.close();
      await sim.close();
    }
  });

  it("answers HA's REST probe and refuses other upgrade paths", async () => {
    const sim = await startHaSimulator({ token: "t", home: generateHome(1, 1) });
    try {
      assert.equal((await fetch(`${sim.url}/api/`)).status, 401);
      const ok = await fetch(`${sim.url}/api/`, { headers: { Authorization: "Bearer t" } });
      assert.deepEqual(await ok.json(), { message: "API running." });
      assert.equal((await fetch(`${sim.url}/nothing`)).status, 404);
    } finally {
      await sim.close();
    }
  });
});
