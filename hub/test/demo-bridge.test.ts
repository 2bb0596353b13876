import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import { loadHubConfig } from "../src/config.ts";
import { createHub, type Hub } from "../src/hub.ts";
import { createHubLogger } from "../src/logs/hub-logger.ts";
import { LogRing } from "../src/logs/log-ring.ts";
import { api, type BridgeRecord, waitForStatus } from "./support/bridge-fixture.ts";
import { eventually, randomMatterPortBase, type TestHub } from "./support/test-context.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));

interface Row {
  entityId: string;
  deviceType: string | null;
  endpointNumber: number | null;
  composedInto: string | null;
  carries: { entityId: string; role: string }[];
}

/**
 * Demo mode's bridge (hub.ts createDemoBridge) shows composed devices (issue 19): batteries on the locks, the
 * motion sensor and the contacts, the metered plug's readings on the plug, and the solar inverter as an Electrical
 * Sensor, without every plain sensor of the demo home.
 */
describe("demo mode: the demo bridge shows composed devices", { timeout: 120_000 }, () => {
  const ring = new LogRing();
  let dataDir: string;
  let hub: Hub;
  let rows: Map<string, Row>;

  before(async () => {
    assertNetworkIsolated();
    dataDir = mkdtempSync(join(tmpdir(), "hub-demo-bridge-"));
    const config = loadHubConfig({ HUB_DATA_DIR: dataDir, HUB_DEMO: "1", HUB_HOST: "127.0.0.1", HUB_PORT: "0" }, root);
    const log = createHubLogger({ level: "warn", ring, stdout: { write: () => undefined } });
    hub = await createHub({
      config,
      log,
      logRing: ring,
      version: "9.9.9",
      haRunningPollMs: 100,
      firstMatterPort: randomMatterPortBase(),
    });
    hub.start();
    const call = api({ app: hub.app } as TestHub);
    const demo = await eventually(async () => (await call<BridgeRecord[]>("GET", "/api/matter/bridges")).body[0], 30_000);
    await waitForStatus(call, demo.id, "running");
    const { body } = await call<{ devices: Row[] }>("GET", `/api/matter/bridges/${demo.id}/devices`);
    rows = new Map(body.devices.map((row) => [row.entityId, row]));
  });
  after(async () => {
    await hub?.stop();
    ring.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const roles = (entityId: string) =>
    rows
      .get(entityId)
      ?.carries.map((part) => part.role)
      .sort() ?? [];

  it("puts each battery on its device's endpoint: locks, the motion sensor, contacts", () => {
    for (const lock of ["lock.front_door", "lock.back_door", "lock.shed"]) assert.ok(roles(lock).includes("battery"), lock);
    assert.deepEqual(roles("lock.front_door"), ["battery", "battery_low"]);
    assert.deepEqual(roles("binary_sensor.hallway_motion"), ["battery"]);
    assert.deepEqual(roles("binary_sensor.bedroom_window"), ["battery"]);
    // The battery sensors are no devices of their own, whether the filter selects them or not.
    assert.equal(rows.get("sensor.front_door_lock_battery")?.endpointNumber ?? null, null);
  });

  it("shows the plug with its meter and the solar inverter as an Electrical Sensor carrying its device's others", () => {
    assert.deepEqual(roles("switch.coffee_machine"), ["current", "energy", "power", "voltage"]);
    assert.equal(rows.get("sensor.coffee_machine_power")?.composedInto, "switch.coffee_machine");
    const inverter = rows.get("sensor.solar_inverter_pv_power");
    assert.equal(inverter?.deviceType, "electrical_sensor");
    assert.ok(inverter?.endpointNumber, "the inverter has an endpoint");
    assert.deepEqual(roles("sensor.solar_inverter_pv_power"), ["energy", "voltage"]);
    assert.equal(rows.get("sensor.solar_inverter_total_yield")?.composedInto, "sensor.solar_inverter_pv_power");
  });

  it("leaves the plain sensors of the home out: only the energy-labelled ones are devices", () => {
    const sensors = [...rows.values()].filter((row) => row.entityId.startsWith("sensor.") && row.endpointNumber !== null);
    assert.ok(
      sensors.every((row) => row.entityId !== "sensor.living_room_sensor_temperature"),
      "a temperature sensor is on the bridge",
    );
    assert.ok(sensors.length <= 8, sensors.map((row) => `${row.entityId} ${row.deviceType}`).join(", "));
  });
});
