import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";
import { isPending, rideAlong, sendMerged } from "./call-batch.ts";

function recorder() {
  const sent: { action: string; data: Record<string, unknown> }[] = [];
  let refuse: Error | undefined;
  return {
    sent,
    refuseWith(error: Error) {
      refuse = error;
    },
    send: async (action: string, data: Record<string, unknown>) => {
      sent.push({ action, data });
      if (refuse) throw refuse;
    },
  };
}

describe("call batch: merge what arrives together, never wait for a timer", () => {
  test("a lone call leaves without any timer running", async () => {
    // With setTimeout and setInterval frozen, a debounce timer would never fire and this would hang.
    mock.timers.enable({ apis: ["setTimeout", "setInterval"] });
    try {
      const ha = recorder();
      const key = {};
      await sendMerged(key, ha.send, "light.turn_on", {});
      assert.deepEqual(ha.sent, [{ action: "light.turn_on", data: {} }]);
    } finally {
      mock.timers.reset();
    }
  });

  test("calls of one action made in the same turn become one call with the data merged in order", async () => {
    const ha = recorder();
    const key = {};
    const first = sendMerged(key, ha.send, "light.turn_on", { brightness: 10 });
    assert.equal(isPending(key, "light.turn_on"), true);
    const second = sendMerged(key, ha.send, "light.turn_on", { brightness: 128, color_temp_kelvin: 3000 });
    assert.equal(first, second, "both commands wait for the same call");
    await Promise.all([first, second]);
    assert.deepEqual(ha.sent, [{ action: "light.turn_on", data: { brightness: 128, color_temp_kelvin: 3000 } }]);
    assert.equal(isPending(key, "light.turn_on"), false);
  });

  test("different actions, momentary actions and different entities stay separate, in order", async () => {
    const ha = recorder();
    const a = {};
    const b = {};
    await Promise.all([
      sendMerged(a, ha.send, "light.turn_off"),
      sendMerged(a, ha.send, "light.turn_on"),
      sendMerged(b, ha.send, "button.press"),
      sendMerged(b, ha.send, "button.press"),
      sendMerged(b, ha.send, "light.turn_on"),
    ]);
    assert.deepEqual(
      ha.sent.map((call) => call.action),
      ["light.turn_off", "light.turn_on", "button.press", "button.press", "light.turn_on"],
    );
  });

  test("a call in a later turn is a new call", async () => {
    const ha = recorder();
    const key = {};
    await sendMerged(key, ha.send, "switch.turn_on");
    await sendMerged(key, ha.send, "switch.turn_on");
    assert.equal(ha.sent.length, 2);
  });

  test("riders travel with a call of their action in the same turn and are dropped without one", async () => {
    const ha = recorder();
    const key = {};
    rideAlong(key, ha.send, "light.turn_on", { brightness: 50 });
    await sendMerged(key, ha.send, "light.turn_on", {});
    rideAlong(key, ha.send, "light.turn_on", { brightness: 60 });
    await new Promise((resolve) => setImmediate(resolve));
    await sendMerged(key, ha.send, "light.turn_on", {});
    assert.deepEqual(ha.sent, [
      { action: "light.turn_on", data: { brightness: 50 } },
      { action: "light.turn_on", data: {} },
    ]);
  });

  test("a refusal fails every call merged into it", async () => {
    const ha = recorder();
    ha.refuseWith(new Error("offline"));
    const key = {};
    const results = await Promise.allSettled([
      sendMerged(key, ha.send, "light.turn_on", {}),
      sendMerged(key, ha.send, "light.turn_on", { brightness: 3 }),
    ]);
    assert.deepEqual(
      results.map((result) => result.status),
      ["rejected", "rejected"],
    );
    assert.equal(ha.sent.length, 1);
  });
});
