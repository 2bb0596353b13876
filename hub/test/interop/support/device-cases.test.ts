import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DOMAIN_TABLE } from "../../../src/matter/devices/domain-table.ts";
import { builtinPlugins } from "../../../src/plugins/builtin/builtin-plugins.ts";
import { ACCOUNT, applianceWorld, EMAIL, PASSWORD } from "../../../src/plugins/testing/appliance-harness.ts";
import { securityWorld } from "../../../src/plugins/testing/security-harness.ts";
import { caseName, isEntitySource } from "./device-case.ts";
import { DEVICE_CASES, type PluginDevice, uncovered } from "./device-cases.ts";
import { CAMERA } from "./plugin-cases.ts";

/** The built-in plugins' names, from the real list (nothing is created: `create` runs only when a slot starts). */
const BUILTIN = builtinPlugins().map((plugin) => plugin.name);

/**
 * What the built-in plugins register, by running them: the security plugin's switches and sensor, the appliance
 * plugin's devices for every device of the test account switched on, and the camera plugin's one camera (a device
 * per configured camera entity, the matrix configures one).
 */
async function pluginDevices(): Promise<PluginDevice[]> {
  const security = await securityWorld();
  const appliances = await applianceWorld();
  await appliances.configure({
    email: EMAIL,
    password: PASSWORD,
    ...Object.fromEntries(ACCOUNT.map((device) => [`device_${device.cid}`, true])),
  });
  const ids = (plugin: string, devices: Map<string, unknown>) => [...devices.keys()].map((device) => ({ plugin, device }));
  return [
    ...ids("security", security.context.devices),
    ...ids("appliance-cloud", appliances.context.devices),
    { plugin: "camera", device: CAMERA },
  ];
}

describe("device-type interop matrix: the rows cover what the hub produces", () => {
  it("every domain of the table, device type key, built-in plugin and plugin device has a row", async () => {
    const devices = await pluginDevices();
    assert.ok(devices.length > 10, `the plugins registered ${devices.length} devices`);
    assert.deepEqual(uncovered(DEVICE_CASES, BUILTIN, devices), {
      domains: [],
      deviceTypeKeys: [],
      builtinPlugins: [],
      pluginDevices: [],
    });
  });

  it("fails for a domain, a key, a plugin or a plugin device without a row", () => {
    const withoutFans = DEVICE_CASES.filter((row) => !(isEntitySource(row.source) && row.source.entityId.startsWith("fan.")));
    const gaps = uncovered(withoutFans, [...BUILTIN, "new-plugin"], [{ plugin: "security", device: "mode-moon" }]);
    assert.deepEqual(gaps, {
      domains: ["fan"],
      deviceTypeKeys: ["fan", "air_purifier"],
      builtinPlugins: ["new-plugin"],
      pluginDevices: ["security/mode-moon"],
    });
    assert.ok(Object.hasOwn(DOMAIN_TABLE, "fan"));
  });

  it("row names are unique (they name the tests and the lines of docs/INTEROP.md)", () => {
    const names = DEVICE_CASES.map(caseName);
    assert.deepEqual(
      names.filter((name, index) => names.indexOf(name) !== index),
      [],
    );
  });
});
