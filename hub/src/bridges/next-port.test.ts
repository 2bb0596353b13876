import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { nextFreePort } from "./next-port.ts";

describe("nextFreePort", () => {
  it("returns the lowest port from 5540 that no bridge uses and nothing else has bound", async () => {
    const boundElsewhere = new Set([5541, 5543]);
    const probe = async (port: number) => !boundElsewhere.has(port);
    assert.equal(await nextFreePort(new Set(), probe), 5540);
    assert.equal(await nextFreePort(new Set([5540]), probe), 5542, "5541 is held by another program");
    assert.equal(await nextFreePort(new Set([5540, 5542]), probe), 5544);
    assert.equal(await nextFreePort(new Set([5542, 5544]), probe), 5540, "a gap below the bridges' ports is used first");
  });

  it("never probes a port a bridge already uses", async () => {
    const probed: number[] = [];
    await nextFreePort(new Set([5540, 5541]), async (port) => {
      probed.push(port);
      return true;
    });
    assert.deepEqual(probed, [5542]);
  });
});
