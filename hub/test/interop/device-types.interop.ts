/**
 * Issue 17, the device-type matrix: every device type the hub produces (each domain and key of the domain table,
 * each built-in plugin's devices) driven by the Matter reference SDK's controller through one bridge. Per row
 * (support/*-cases.ts): the descriptor and Bridged Device Basic Information, every server cluster against the
 * specification's conformance for its FeatureMap, a change at the source reported over the one subscription, every
 * command with the HA call it must become, and bad arguments that must fail with their Matter status while HA is
 * not called and the bridge keeps running. docs/INTEROP.md "Device types against the reference controller".
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { isDeepStrictEqual } from "node:util";
import { cutUtf8 } from "../../src/matter/matter-strings.ts";
import type { BridgeRecord } from "../support/bridge-fixture.ts";
import { conformanceFindings, descriptorFindings, type EndpointRead, unexercisedCommands } from "./support/conformance.ts";
import { caseName, isEntitySource, matchesValue, reportsOf } from "./support/device-case.ts";
import { DEVICE_CASES } from "./support/device-cases.ts";
import { applyChange, expectEffects, failureStatus, readEndpoint, runAction, watchSideEffects } from "./support/device-checks.ts";
import { CONTROLLER, type DeviceWorld, NODE, startDeviceWorld } from "./support/device-world.ts";

const MAX_LABEL_BYTES = 32;
/** `DEVICE_ROWS=lock,fan node scripts/interop.mjs device-types` runs only the rows whose name contains a part. */
const only = process.env.DEVICE_ROWS?.split(",").filter(Boolean);
const ROWS = only ? DEVICE_CASES.filter((row) => only.some((part) => caseName(row).includes(part))) : DEVICE_CASES;

describe("device types against the reference controller", { timeout: 600_000 }, () => {
  let world: DeviceWorld;
  /** UniqueID → the row that has it: a controller tells bridged devices apart by it. */
  const uniqueIds = new Map<string, string>();

  before(async () => {
    world = await startDeviceWorld(ROWS);
  });
  after(async () => {
    await world?.close();
  });

  it("the aggregator lists every row's device as a part", async () => {
    const read = await world.chip.read(CONTROLLER, NODE, [[1, "Descriptor", "PartsList"]]);
    const parts = read["1"]?.Descriptor?.PartsList as number[];
    const missing = ROWS.filter((row) => !parts.includes(world.endpointOf(row))).map(caseName);
    assert.deepEqual(missing, []);
  });

  for (const row of ROWS) {
    describe(caseName(row), () => {
      let endpoint: number;
      let read: EndpointRead;

      before(async () => {
        endpoint = world.endpointOf(row);
        read = await readEndpoint(world, endpoint);
      });

      const types = [row.deviceType, ...(row.composedDeviceTypes ?? [])].map((type) => `0x${type.toString(16).padStart(4, "0")}`);
      it(`descriptor: device type ${types.join(" + ")}, Bridged Node, required clusters`, () => {
        const findings = [row.deviceType, ...(row.composedDeviceTypes ?? [])].flatMap((type) => descriptorFindings(read, type));
        assert.deepEqual([...new Set(findings)], []);
      });

      if (row.reads) {
        const reads = row.reads;
        it(`reads what HA shows (${reads.map((r) => `${r.cluster}.${r.attribute}`).join(", ")})`, () => {
          for (const { cluster, attribute, expected } of reads) {
            const value = read.typed[cluster]?.[attribute];
            assert.ok(
              matchesValue(value, expected),
              `${cluster}.${attribute}: ${JSON.stringify(value)}, expected ${JSON.stringify(expected)}`,
            );
          }
        });
      }

      it("Bridged Device Basic Information: NodeLabel, UniqueID (unique on the bridge), Reachable", () => {
        const info = read.typed.BridgedDeviceBasicInformation ?? {};
        assert.equal(info.NodeLabel, cutUtf8(world.nameOf(row), MAX_LABEL_BYTES), "the name the hub shows, cut to 32 bytes");
        const uniqueId = info.UniqueID as string;
        assert.ok(uniqueId.length > 0 && uniqueId.length <= 32, `UniqueID ${JSON.stringify(uniqueId)}`);
        assert.equal(uniqueIds.get(uniqueId) ?? caseName(row), caseName(row), `UniqueID ${uniqueId} is used twice`);
        uniqueIds.set(uniqueId, caseName(row));
        assert.equal(info.Reachable, true);
      });

      it("every server cluster: mandatory attributes and commands for its FeatureMap, all readable", () => {
        assert.deepEqual(conformanceFindings(read), []);
      });

      it("every command the device accepts has a case", () => {
        assert.deepEqual(unexercisedCommands(read, row), []);
      });

      for (const report of reportsOf(row)) {
        it(`reports a change at the source (${report.cluster}.${"attribute" in report ? report.attribute : report.event})`, async () => {
          const since = world.chip.events.length;
          await applyChange(world, row, report.change);
          if ("attribute" in report) {
            const seen = await world.chip
              .waitForReport(
                { endpoint, cluster: report.cluster, attribute: report.attribute },
                (value) => matchesValue(value, report.expected),
                { since, timeoutMs: 10_000 },
              )
              .catch(async (error: Error) => {
                // Tell "never reported" from "never changed": what does a read say now?
                const now = await world.chip.read(CONTROLLER, NODE, [[endpoint, report.cluster, report.attribute]]);
                const value = now[String(endpoint)]?.[report.cluster]?.[report.attribute];
                throw new Error(`${error.message}; a read now gives ${JSON.stringify(value)}`);
              });
            assert.ok(matchesValue(seen.value, report.expected), JSON.stringify(seen.value));
          } else {
            const expected = report.expected ?? {};
            await world.chip.waitForMatterEvent(
              { endpoint, cluster: report.cluster, name: report.event },
              (value) =>
                Object.entries(expected).every(([key, v]) => isDeepStrictEqual((value as Record<string, unknown>)[key], v)),
              { since, timeoutMs: 10_000 },
            );
          }
        });
      }

      if (row.commands.length > 0) {
        it("every command reaches its target", async () => {
          for (const command of row.commands) {
            const label = "invoke" in command.action ? command.action.command : `write ${command.action.attribute}`;
            if (command.settle) await world.pluginStatus(command.settle.plugin, command.settle.status);
            const seen = watchSideEffects(world);
            const result = await runAction(world, endpoint, command.action);
            if ("write" in command.action) assert.equal(result, "Success", label);
            if (typeof command.response === "function") command.response(result as Record<string, unknown>);
            else if (command.response) {
              for (const [key, value] of Object.entries(command.response)) {
                assert.deepEqual((result as Record<string, unknown>)[key], value, `${label} response ${key}`);
              }
            }
            const effects = command.effect === undefined ? [] : [command.effect].flat();
            await expectEffects(row, effects, seen).catch((error: Error) => {
              throw new Error(`${label}: ${error.message}`);
            });
          }
        });
      }

      if (row.errors.length > 0) {
        it(`bad arguments fail with their status: ${row.errors.map((e) => e.status ?? "status in response").join(", ")}; nothing reaches HA`, async () => {
          for (const bad of row.errors) {
            const seen = watchSideEffects(world);
            const outcome = await failureStatus(world, endpoint, bad.action);
            if (bad.status) assert.equal(outcome, bad.status, bad.label);
            if (bad.response) {
              for (const [key, value] of Object.entries(bad.response)) {
                assert.deepEqual((outcome as Record<string, unknown>)[key], value, `${bad.label}: response ${key}`);
              }
            }
            const entityId = isEntitySource(row.source) ? row.source.entityId : undefined;
            const calls = seen.haCalls().filter((c) => entityId === undefined || c.entityIds.includes(entityId));
            assert.deepEqual(calls, [], `${bad.label}: HA was called`);
            assert.deepEqual(seen.cloudCommands(), [], `${bad.label}: the cloud was called`);
          }
          // Nothing crashed: the bridge still runs and answers on this endpoint.
          const record = await world.call<BridgeRecord>("GET", `/api/matter/bridges/${world.bridge.id}`);
          assert.equal(record.body.status, "running");
          const again = await world.chip.read(CONTROLLER, NODE, [[endpoint, "Descriptor", "DeviceTypeList"]]);
          assert.ok(again[String(endpoint)]?.Descriptor?.DeviceTypeList);
        });
      }
    });
  }
});
