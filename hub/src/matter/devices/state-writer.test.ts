import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";
import type { Endpoint } from "@matter/main";
import { createTestBridge, invoke, snapshot, type TestBridge } from "../../../test/support/devices/device-harness.ts";
import { updateDeviceEndpoint } from "./endpoint-types.ts";
import { MAX_SHARED, StateWriter } from "./state-writer.ts";

type Events = Record<string, Record<string, { on(listener: (value: unknown) => void): void }>>;
type State = Record<string, Record<string, unknown>>;

const onOffOf = (endpoint: Endpoint) => (endpoint.state as unknown as State).onOff?.onOff;

/** Every committed value of `behavior.attribute`, in commit order. */
function recordChanges(endpoint: Endpoint, behavior: string, attribute: string): unknown[] {
  const seen: unknown[] = [];
  (endpoint.events as unknown as Events)[behavior]?.[`${attribute}$Changed`]?.on((value) => seen.push(value));
  return seen;
}

/** Resolves after the writer's flush of this turn and the commits it starts (no timing involved). */
const settle = (promises: Promise<unknown>[]) => Promise.allSettled(promises);

describe("HA state writes share transactions per node and turn", () => {
  let bridge: TestBridge;
  const lights: Endpoint[] = [];
  /** More lights, for a burst beyond one shared transaction. */
  const extra: Endpoint[] = [];
  let dimmer: Endpoint;

  before(async () => {
    bridge = await createTestBridge("state-writer");
    for (let i = 0; i < 6; i++) lights.push(await bridge.add("on_off_light", snapshot(`light.l${i}`, "off")));
    dimmer = await bridge.add("dimmable_light", snapshot("light.dimmer", "on", { brightness: 100 }));
    for (let i = 0; i < 30; i++) extra.push(await bridge.add("on_off_light", snapshot(`light.extra${i}`, "off")));
    await bridge.start();
  });
  after(async () => {
    await bridge?.close();
  });
  beforeEach(() => bridge.actions.reset());

  test("writes to several endpoints in one turn: one transaction, every value committed", async () => {
    const writer = new StateWriter();
    await settle(lights.map((light) => writer.write(light, { onOff: { onOff: true } })));
    assert.deepEqual(writer.stats, { shared: 1, alone: 0 });
    assert.deepEqual(
      lights.map((light) => onOffOf(light)),
      lights.map(() => true),
    );
    await settle(lights.map((light) => writer.write(light, { onOff: { onOff: false } })));
    assert.deepEqual(writer.stats, { shared: 2, alone: 0 });
  });

  test("a burst larger than a shared transaction takes: groups of MAX_SHARED, every value committed", async () => {
    const writer = new StateWriter();
    const many = [...lights, ...extra];
    assert.ok(many.length > 2 * MAX_SHARED);
    await settle(many.map((light) => writer.write(light, { onOff: { onOff: true } })));
    assert.deepEqual(writer.stats, { shared: Math.ceil(many.length / MAX_SHARED), alone: 0 });
    assert.ok(many.every((light) => onOffOf(light) === true));
    await settle(many.map((light) => writer.write(light, { onOff: { onOff: false } })));
    assert.ok(many.every((light) => onOffOf(light) === false));
  });

  test("writes queued by several frames fill one group per turn, and one group starts per turn", async () => {
    const writer = new StateWriter();
    const first = extra.slice(0, MAX_SHARED + 4);
    const second = extra.slice(MAX_SHARED + 4, MAX_SHARED + 8);
    // The turn in which each light's change committed, counted by a chain of immediates running beside the writes.
    let turn = 0;
    let counting = true;
    const tick = () => {
      turn++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    const committedIn = new Map<Endpoint, number>();
    for (const light of [...first, ...second]) {
      (light.events as unknown as Events).onOff?.onOff$Changed?.on(() => committedIn.set(light, turn));
    }
    const writes = first.map((light) => writer.write(light, { onOff: { onOff: true } }));
    // The next frame arrives a turn later, while the first frame's second group still waits.
    await new Promise((resolve) => setImmediate(resolve));
    writes.push(...second.map((light) => writer.write(light, { onOff: { onOff: true } })));
    await settle(writes);
    counting = false;
    // MAX_SHARED of the first frame, then its last 4 together with the second frame's 4: two groups, not three.
    assert.deepEqual(writer.stats, { shared: 2, alone: 0 });
    const turns = (lights: Endpoint[]) => new Set(lights.map((light) => committedIn.get(light)));
    assert.equal(turns(first.slice(0, MAX_SHARED)).size, 1);
    assert.equal(turns([...first.slice(MAX_SHARED), ...second]).size, 1);
    assert.ok((committedIn.get(second[0] as Endpoint) ?? 0) > (committedIn.get(first[0] as Endpoint) ?? 0));
    await settle([...first, ...second].map((light) => writer.write(light, { onOff: { onOff: false } })));
  });

  test("updates keep their order per endpoint; a newer state replaces one still waiting", async () => {
    const writer = new StateWriter();
    const [a, b, c] = lights as [Endpoint, Endpoint, Endpoint];
    const seenA = recordChanges(a, "onOff", "onOff");
    const seenB = recordChanges(b, "onOff", "onOff");
    const seenC = recordChanges(c, "onOff", "onOff");
    // All three start off. One turn: A on, off, on; B on; C on, off. Then a second turn: B off, C on.
    const first = await Promise.all([
      updateDeviceEndpoint(a, snapshot("light.l0", "on"), undefined, writer),
      updateDeviceEndpoint(b, snapshot("light.l1", "on"), undefined, writer),
      updateDeviceEndpoint(a, snapshot("light.l0", "off"), undefined, writer),
      updateDeviceEndpoint(c, snapshot("light.l2", "on"), undefined, writer),
      updateDeviceEndpoint(a, snapshot("light.l0", "on"), undefined, writer),
      updateDeviceEndpoint(c, snapshot("light.l2", "off"), undefined, writer),
    ]);
    // The first call of an idle endpoint queues its write; when the write's group starts it writes the newest state
    // (A on; C's on and off leave it off: nothing to write), and the calls after it find nothing left to change.
    assert.deepEqual(
      first.map((update) => update.changed),
      [["onOff.onOff"], ["onOff.onOff"], [], [], [], []],
    );
    await Promise.all([
      updateDeviceEndpoint(b, snapshot("light.l1", "off"), undefined, writer),
      updateDeviceEndpoint(c, snapshot("light.l2", "on"), undefined, writer),
    ]);
    assert.deepEqual(seenA, [true]);
    assert.deepEqual(seenB, [true, false]);
    assert.deepEqual(seenC, [true]);
    assert.deepEqual([a, b, c].map(onOffOf), [true, false, true]);
    // The first writes of A, B and C shared one transaction, and so did the second turn's of B and C.
    assert.ok(writer.stats.shared >= 2, JSON.stringify(writer.stats));
    assert.ok(writer.stats.shared + writer.stats.alone <= 4, JSON.stringify(writer.stats));
  });

  test("a write waiting for its group takes every newer state of its endpoint, in one write", async () => {
    const writer = new StateWriter();
    const light = extra[29] as Endpoint;
    const seen = recordChanges(light, "onOff", "onOff");
    // Queued: on. Before its group starts: off, then on again with a new name.
    const calls = [
      updateDeviceEndpoint(light, snapshot("light.extra29", "on"), undefined, writer),
      updateDeviceEndpoint(light, snapshot("light.extra29", "off"), undefined, writer),
      updateDeviceEndpoint(light, { ...snapshot("light.extra29", "on"), name: "Porch" }, undefined, writer),
    ];
    const results = await Promise.all(calls);
    assert.deepEqual(seen, [true]);
    const state = light.state as unknown as State;
    assert.equal(state.bridgedDeviceBasicInformation?.nodeLabel, "Porch");
    // The first call reports what its write carried once refreshed; the others had nothing left to write.
    assert.deepEqual(
      results.map((result) => result.changed.sort()),
      [["bridgedDeviceBasicInformation.nodeLabel", "onOff.onOff"], [], []],
    );
    await updateDeviceEndpoint(light, snapshot("light.extra29", "off"), undefined, writer);
  });

  test("an endpoint held by a command in flight waits alone; the others commit without waiting for it", async () => {
    const writer = new StateWriter();
    const [held, free] = lights.slice(3) as [Endpoint, Endpoint];
    let release = () => {};
    bridge.actions.hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The controller turns `held` on; HA has not answered yet, so the command holds the endpoint's OnOff state.
    const command = invoke(held, "onOff", "on");
    await waitUntil(() => bridge.actions.calls.length === 1);
    let heldWritten = false;
    const heldWrite = writer.write(held, { onOff: { onOff: false } }).then(() => {
      heldWritten = true;
    });
    await writer.write(free, { onOff: { onOff: true } });
    assert.equal(onOffOf(free), true);
    assert.equal(heldWritten, false, "the held endpoint's write waits for the command");
    release();
    await command;
    await heldWrite;
    // HA's state, written after the command committed, is what the endpoint shows.
    assert.equal(onOffOf(held), false);
    assert.deepEqual(writer.stats, { shared: 1, alone: 1 });
  });

  test("HA's on and off arriving together while a command holds the endpoint end at HA's off (a script that ran)", async () => {
    const writer = new StateWriter();
    const light = extra[0] as Endpoint;
    let release = () => {};
    bridge.actions.hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const command = invoke(light, "onOff", "on");
    await waitUntil(() => bridge.actions.calls.length === 1);
    // The command has set OnOff in its own transaction, not yet committed; HA reports the run and its end at once.
    const updates = Promise.all([
      updateDeviceEndpoint(light, snapshot("light.extra0", "on"), undefined, writer),
      updateDeviceEndpoint(light, snapshot("light.extra0", "off"), undefined, writer),
    ]);
    release();
    await command;
    await updates;
    assert.equal(onOffOf(light), false, "HA's last state, not the command's value");
  });

  test("a value matter.js refuses fails only its own endpoint's write", async () => {
    const writer = new StateWriter();
    const [a, b] = lights.slice(4) as [Endpoint, Endpoint];
    const results = await settle([
      writer.write(a, { onOff: { onOff: true } }),
      writer.write(dimmer, { levelControl: { currentLevel: 1000 } }),
      writer.write(b, { onOff: { onOff: true } }),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ["fulfilled", "rejected", "fulfilled"],
    );
    assert.equal(onOffOf(a), true);
    assert.equal(onOffOf(b), true);
    assert.notEqual((dimmer.state as unknown as State).levelControl?.currentLevel, 1000);
  });
});

/** Polls a condition on the event loop, without a time budget of its own (the test's timeout bounds it). */
async function waitUntil(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}
