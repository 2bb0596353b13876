import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DOMAIN_TABLE } from "../../../src/matter/devices/domain-table.ts";
import { type BuiltinDeps, builtinPlugins } from "../../../src/plugins/builtin/builtin-plugins.ts";
import { caseName, isEntitySource } from "./device-case.ts";
import { DEVICE_CASES, uncovered } from "./device-cases.ts";

/** The built-in plugins' names, from the real list (nothing is created: `create` runs only when a slot starts). */
const BUILTIN = builtinPlugins({ openHa: () => undefined, openCameraHa: () => undefined } as unknown as BuiltinDeps).map(
  (plugin) => plugin.name,
);

describe("device-type interop matrix: the rows cover what the hub produces", () => {
  it("every domain of the table, every device type key and every built-in plugin has a row", () => {
    assert.deepEqual(uncovered(DEVICE_CASES, BUILTIN), { domains: [], deviceTypeKeys: [], builtinPlugins: [] });
  });

  it("fails for a domain, a key or a plugin without a row", () => {
    const withoutFans = DEVICE_CASES.filter((row) => !(isEntitySource(row.source) && row.source.entityId.startsWith("fan.")));
    const gaps = uncovered(withoutFans, [...BUILTIN, "new-plugin"]);
    assert.deepEqual(gaps, { domains: ["fan"], deviceTypeKeys: ["fan", "air_purifier"], builtinPlugins: ["new-plugin"] });
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
