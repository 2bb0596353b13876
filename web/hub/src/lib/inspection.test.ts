import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { EndpointInspection, InspectedAttribute } from "../api/types.ts";
import { applyChanges, changedKeys, labelOf } from "./inspection.ts";

const attribute = (id: number, name: string, value: InspectedAttribute["value"]): InspectedAttribute => ({
  id,
  name,
  type: "x",
  value,
  text: JSON.stringify(value),
  truncated: false,
  hidden: null,
});

const lamp = (on: boolean, label = "Lamp"): EndpointInspection => ({
  bridgeId: "b1",
  endpointNumber: 3,
  endpointId: "e1",
  entityId: "light.lamp",
  readAt: "2025-01-01T00:00:00.000Z",
  deviceTypes: [],
  parts: [],
  clusters: [
    {
      id: 6,
      name: "OnOff",
      side: "server",
      revision: 6,
      featureMap: 1,
      features: ["Lighting"],
      attributes: [attribute(0, "OnOff", on), attribute(0xfffd, "ClusterRevision", 6)],
    },
    {
      id: 0x39,
      name: "BridgedDeviceBasicInformation",
      side: "server",
      revision: 4,
      featureMap: 0,
      features: [],
      attributes: [attribute(5, "NodeLabel", label)],
    },
    { id: 0x1e, name: "Binding", side: "client", revision: null, featureMap: null, features: [], attributes: [] },
  ],
});

describe("the device inspector's view of live changes", () => {
  it("puts a live update's attributes in, leaving the rest as they were", () => {
    const after = applyChanges(lamp(false), [{ clusterId: 6, ...attribute(0, "OnOff", true) }]);
    assert.deepEqual(after, lamp(true));
  });

  it("finds the values that read differently, only between snapshots of the same endpoint", () => {
    assert.deepEqual(changedKeys(lamp(false), lamp(true, "Desk")), ["6/0", "57/5"]);
    assert.deepEqual(changedKeys(undefined, lamp(true)), []);
    assert.deepEqual(changedKeys({ ...lamp(false), endpointNumber: 4 }, lamp(true)), []);
  });

  it("names the device by its node label", () => {
    assert.equal(labelOf(lamp(true, "Desk")), "Desk");
    assert.equal(labelOf({ ...lamp(true), clusters: [] }), null);
  });
});
