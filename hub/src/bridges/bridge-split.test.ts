import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { generateHome } from "../../../simulators/home-assistant/generate-home.ts";
import { EntityMappingStore } from "../entity-mappings/entity-mapping-store.ts";
import { viewEntity } from "../home-assistant/entity-view.ts";
import { HomeAssistantModel } from "../home-assistant/ha-model.ts";
import { planBridge } from "../matter/bridge/bridge-plan.ts";
import type { BridgeConfig } from "./bridge-config.ts";
import { planSplit, type SplitBy } from "./bridge-split.ts";
import { countedFromPlan } from "./controller-checks.ts";
import { type BridgeFilter, compileFilter } from "./filter.ts";

/** A generated home of 260 entities; every third entity labelled "upstairs", every fifth "lights", some both. */
function home(): HomeAssistantModel {
  const snapshot = generateHome(260, 7);
  snapshot.labels.push(
    { ...(snapshot.labels[0] as (typeof snapshot.labels)[number]), label_id: "upstairs", name: "Upstairs" },
    { ...(snapshot.labels[0] as (typeof snapshot.labels)[number]), label_id: "lights", name: "Lights" },
  );
  snapshot.entities.forEach((entity, index) => {
    entity.labels = [...(index % 3 === 0 ? ["upstairs"] : []), ...(index % 5 === 0 ? ["lights"] : [])];
  });
  const model = new HomeAssistantModel();
  model.setRegistries(snapshot);
  model.applyStates(snapshot.states);
  return model;
}

const model = home();
const mappings = new EntityMappingStore("/nonexistent");
const bridge = (filter: BridgeFilter): BridgeConfig => ({
  id: "b1",
  name: "Whole house",
  port: 5540,
  filter,
  priority: 100,
  serverMode: false,
  composeDevices: true,
  autoStart: true,
  passcode: 20202021,
  discriminator: 3840,
  createdAt: "",
  updatedAt: "",
});
const devicesOf = (filter: BridgeFilter) => countedFromPlan(planBridge({ model, mappings }, bridge(filter)));

function split(base: BridgeFilter, by: SplitBy, maxDevices: number) {
  const devices = devicesOf(base).map((device) => {
    const view = viewEntity(model, device.entityId ?? "");
    assert.ok(view);
    return { entityId: view.entityId, areaId: view.areaId, labels: [...view.labels, ...view.deviceLabels] };
  });
  const nameOf = (id: string) => (by === "area" ? model.areas.get(id)?.name : model.labels.get(id)?.name) ?? id;
  return planSplit({
    by,
    maxDevices,
    base: { name: "Whole house", filter: base },
    devices,
    nameOf,
    count: (filter) => devicesOf(filter).length,
  });
}

/**
 * Every entity the base filter selects is selected by exactly one new filter, no other entity by any. Without a
 * remainder bridge (none of the entities outside the areas or labels is a device), those are on none.
 */
function assertExactlyOnce(base: BridgeFilter, bridges: { filter: BridgeFilter; remainder: boolean }[]) {
  const baseFilter = compileFilter(base, model);
  const compiled = bridges.map((bridge) => compileFilter(bridge.filter, model));
  const rest = bridges.some((bridge) => bridge.remainder);
  const devices = new Set(devicesOf(base).map((device) => device.entityId));
  let covered = 0;
  for (const entityId of model.entityIds()) {
    const view = viewEntity(model, entityId);
    assert.ok(view);
    const hits = compiled.filter((filter) => filter.matches(view)).length;
    if (baseFilter.matches(view) && hits === 0 && !rest) {
      assert.ok(!devices.has(entityId), `${entityId} is a device on no new bridge`);
      continue;
    }
    assert.equal(hits, baseFilter.matches(view) ? 1 : 0, `${entityId} is on ${hits} new bridges`);
    covered += hits;
  }
  assert.ok(covered >= devices.size);
}

describe("split proposal", () => {
  const base: BridgeFilter = {
    include: [
      { type: "domain", value: "light" },
      { type: "domain", value: "switch" },
      { type: "domain", value: "sensor" },
      { type: "domain", value: "binary_sensor" },
    ],
    exclude: [{ type: "pattern", value: "*_illuminance" }],
    includeHidden: false,
  };

  it("packs areas into bridges that fit, keeps the original rules and narrows with `within`", () => {
    const total = devicesOf(base).length;
    assert.ok(total > 150, `the home exposes ${total} devices`);
    const plan = split(base, "area", 50);
    assert.ok(plan.bridges.length >= Math.ceil(total / 50));
    assert.deepEqual(plan.tooBig, []);
    for (const proposed of plan.bridges) {
      assert.deepEqual(proposed.filter.include, base.include, `${proposed.name} keeps the original includes`);
      assert.deepEqual(proposed.filter.exclude.slice(0, base.exclude.length), base.exclude);
      const counted = devicesOf(proposed.filter).length;
      assert.equal(counted, proposed.devices, `${proposed.name}: grouping and plan agree`);
      assert.ok(counted <= 50, `${proposed.name} fits: ${counted}`);
      assert.ok(Buffer.byteLength(proposed.name) <= 32, proposed.name);
      if (!proposed.remainder)
        assert.deepEqual(
          proposed.filter.within,
          proposed.groups.map((g) => ({ type: "area", value: g.id })),
        );
    }
    assert.equal(new Set(plan.bridges.map((b) => b.name)).size, plan.bridges.length, "names are distinct");
    assertExactlyOnce(base, plan.bridges);
    assert.equal(
      plan.bridges.reduce((sum, b) => sum + b.devices, 0),
      total,
    );
  });

  it("reports an area too big for one bridge instead of overfilling a bridge silently", () => {
    const plan = split(base, "area", 20);
    assert.ok(plan.tooBig.length > 0);
    for (const group of plan.tooBig) {
      assert.ok(group.devices > 20);
      const own = plan.bridges.find((b) => b.groups.some((g) => g.id === group.id));
      assert.deepEqual(own?.groups, [group], "a too-big area gets a bridge of its own");
    }
    assertExactlyOnce(base, plan.bridges);
  });

  it("splits by label as a chain, so an entity with two labels lands on one bridge; the unlabelled go to the rest", () => {
    const plan = split(base, "label", 60);
    const remainder = plan.bridges.find((b) => b.remainder);
    assert.ok(remainder, "unlabelled entities have a bridge");
    assert.ok(remainder.filter.exclude.some((rule) => rule.type === "label"));
    assertExactlyOnce(base, plan.bridges);
    for (const proposed of plan.bridges) assert.equal(devicesOf(proposed.filter).length, proposed.devices, proposed.name);
  });

  it("splits a bridge made by a split again, inside its own narrowing (area then label, area then area)", () => {
    const first = split(base, "area", 80).bridges.find((b) => !b.remainder);
    assert.ok(first);
    for (const [by, max] of [
      ["label", 10],
      ["area", 20],
    ] as const) {
      const again = split(first.filter, by, max);
      assertExactlyOnce(first.filter, again.bridges);
    }
  });
});
