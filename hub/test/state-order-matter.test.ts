import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import type { HaSimulator } from "../../simulators/home-assistant/index.ts";
import type { NodeId } from "./support/bridge-fixture.ts";
import type { TestController } from "./support/matter-controller.ts";
import { startPairedBridge } from "./support/paired-bridge.ts";
import { eventually } from "./support/test-context.ts";

const LAMPS = ["light.bedside_lamp", "light.floor_lamp", "light.kitchen_spots", "light.living_room_ceiling"] as const;
const [A, B, C, D] = LAMPS;
const PLUG = "switch.coffee_machine";
const PLUG_POWER = "sensor.coffee_machine_power";
const LEVEL_CONTROL = 0x0008;
const ELECTRICAL_POWER = 0x0090;

/** The simulator sends the `subscribe_entities` events of one turn in one WebSocket frame (coalesced). */
const nextFrame = () => new Promise((resolve) => setImmediate(resolve));

/** Whether every value reported for an attribute came later in the sent order than the one reported before it. */
function strictlyIncreasing(values: number[]): boolean {
  return values.every((value, i) => i === 0 || value > (values[i - 1] as number));
}

/**
 * HA → Matter ordering with the writes of one HA frame shared in one matter.js transaction per bridge (issue 22):
 * several changes of one entity, of several entities and of a composed companion in one frame and across frames,
 * as a subscribed controller sees them; and a command waiting for HA does not hold up other devices' reports.
 * Values only ever grow in what is sent, so a report arriving out of order shows as a smaller value after a larger.
 */
describe("HA state changes reach the controller in order, one frame at a time", { timeout: 180_000 }, () => {
  let world: Awaited<ReturnType<typeof startPairedBridge>>;
  let sim: HaSimulator;
  let controller: TestController;
  let nodeId: NodeId;
  const reports = new Map<string, number[]>();
  const reported = (entityId: string, cluster: number, attribute: string) =>
    reports.get(`${world.ep(entityId)}/${cluster}/${attribute}`) ?? [];

  before(async () => {
    assertNetworkIsolated();
    world = await startPairedBridge([...LAMPS, PLUG, PLUG_POWER]);
    ({ sim, controller, nodeId } = world);
    await controller.onAttribute(nodeId, (report) => {
      if (typeof report.value !== "number") return;
      const key = `${report.endpoint}/${report.clusterId}/${report.attribute}`;
      reports.set(key, [...(reports.get(key) ?? []), report.value]);
    });
  });
  after(async () => {
    await world?.close();
  });

  it("keeps each endpoint's order within a frame and across frames, and ends at HA's last values", async () => {
    for (const lamp of LAMPS) sim.setState(lamp, "on", { brightness: 5 });
    sim.setState(PLUG_POWER, "1", { unit_of_measurement: "W", device_class: "power" });
    await eventually(async () => (await controller.read(nodeId, world.ep(C), "levelControl", "currentLevel")) === 5);
    reports.clear();
    // Frame 1: A three times, B twice, C once, the plug and its power sensor (same endpoint) interleaved.
    sim.setState(A, "on", { brightness: 20 });
    sim.setState(B, "on", { brightness: 20 });
    sim.setState(A, "on", { brightness: 60 });
    sim.setState(PLUG, "on");
    sim.setState(PLUG_POWER, "100");
    sim.setState(C, "on", { brightness: 20 });
    sim.setState(A, "on", { brightness: 100 });
    sim.setState(PLUG_POWER, "200");
    sim.setState(B, "on", { brightness: 60 });
    await nextFrame();
    // Frame 2.
    sim.setState(B, "on", { brightness: 100 });
    sim.setState(A, "on", { brightness: 140 });
    sim.setState(C, "on", { brightness: 60 });
    sim.setState(PLUG_POWER, "300");
    sim.setState(A, "on", { brightness: 180 });

    const level = (entityId: string) => controller.read(nodeId, world.ep(entityId), "levelControl", "currentLevel");
    const finalLevels = { [A]: 179, [B]: 100, [C]: 60 };
    await eventually(async () => {
      for (const [lamp, expected] of Object.entries(finalLevels)) if ((await level(lamp)) !== expected) return false;
      return (await controller.read(nodeId, world.ep(PLUG), "electricalPowerMeasurement", "activePower")) === 300_000;
    }, 10_000);
    assert.equal(await controller.read(nodeId, world.ep(PLUG), "onOff", "onOff"), true);
    // The subscription's reports: in sent order per endpoint, the last one being the final value.
    await eventually(() => reported(A, LEVEL_CONTROL, "currentLevel").at(-1) === 179);
    await eventually(() => reported(PLUG, ELECTRICAL_POWER, "activePower").at(-1) === 300_000);
    for (const lamp of [A, B, C]) {
      const values = reported(lamp, LEVEL_CONTROL, "currentLevel");
      assert.ok(strictlyIncreasing(values), `${lamp}: ${values.join(", ")}`);
    }
    const power = reported(PLUG, ELECTRICAL_POWER, "activePower");
    assert.ok(strictlyIncreasing(power), `power: ${power.join(", ")}`);
  });

  it("a command waiting for HA holds up only its own device; its final state is HA's", async () => {
    sim.setState(D, "off");
    await eventually(async () => (await controller.read(nodeId, world.ep(D), "onOff", "onOff")) === false);
    let release = () => {};
    sim.setServiceBehavior({
      hold: new Promise<void>((resolve) => {
        release = resolve;
      }),
      match: (call) => call.entityIds.includes(D),
    });
    let commandDone = false;
    const command = controller.invoke(nodeId, world.ep(D), "onOff", "on").then(() => {
      commandDone = true;
    });
    await sim.waitForCall((call) => call.entityIds.includes(D), 10_000);
    // While D's command waits for HA: D's own state changes in HA, and so do A and B, in one frame.
    sim.setState(D, "off", { brightness: 30 });
    sim.setState(A, "on", { brightness: 220 });
    sim.setState(B, "on", { brightness: 220 });
    await controller.waitForAttribute(nodeId, world.ep(B), "levelControl", "currentLevel", (value) => value === 219);
    await eventually(async () => (await controller.read(nodeId, world.ep(A), "levelControl", "currentLevel")) === 219);
    assert.equal(commandDone, false, "D's command still waits for HA");
    release();
    await command;
    sim.setServiceBehavior(undefined);
    // HA carried the call out (on); the bridge shows HA's state once both are through.
    await eventually(async () => (await controller.read(nodeId, world.ep(D), "onOff", "onOff")) === true);
    assert.equal(sim.getState(D)?.state, "on");
  });
});
