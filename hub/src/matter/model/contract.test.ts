import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PLUGIN_DEVICE_TYPE_KEYS, type PluginDeviceType } from "../../plugins/api.ts";
import { PLUGIN_TYPE_KEYS, type PluginTypeKey } from "./contract.ts";

// The compiler refuses a key in one list and not the other (this file is type-checked with the sources).
const apiKeysKnownHere: readonly PluginTypeKey[] = PLUGIN_DEVICE_TYPE_KEYS;
const keysHereInTheApi: readonly PluginDeviceType[] = PLUGIN_TYPE_KEYS;

describe("device contract", () => {
  it("lists exactly the plugin API's device type keys, in its order", () => {
    assert.deepEqual([...PLUGIN_TYPE_KEYS], [...PLUGIN_DEVICE_TYPE_KEYS]);
    assert.equal(apiKeysKnownHere.length, keysHereInTheApi.length);
  });
});
