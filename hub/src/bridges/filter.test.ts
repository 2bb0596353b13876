import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { describeIssues } from "../../../lib/validate.ts";
import { viewEntity } from "../home-assistant/entity-view.ts";
import { HomeAssistantModel } from "../home-assistant/ha-model.ts";
import type { EntityRegistryEntry } from "../home-assistant/types.ts";
import { compileGlob } from "./entity-regex.ts";
import { type BridgeFilter, BridgeFilterSchema, compileFilter } from "./filter.ts";

/** The pattern from issue 16: catastrophic backtracking on `sensor.aaaa…` without the `!`. */
const ISSUE_PATTERN = "^[a-z]+\\.([a-z_]+)+!$";

const entry = (entity_id: string, extra: Partial<EntityRegistryEntry> = {}): EntityRegistryEntry => ({
  entity_id,
  id: entity_id,
  unique_id: entity_id,
  platform: "hue",
  device_id: null,
  area_id: null,
  config_entry_id: null,
  disabled_by: null,
  hidden_by: null,
  entity_category: null,
  has_entity_name: false,
  name: null,
  original_name: null,
  icon: null,
  labels: [],
  ...extra,
});

function home(): HomeAssistantModel {
  const model = new HomeAssistantModel();
  model.setRegistries({
    entities: [
      entry("light.kitchen", { device_id: "d-kitchen" }),
      entry("light.desk", { area_id: "office", labels: ["voice"] }),
      entry("light.hidden", { hidden_by: "user" }),
      entry("light.disabled", { disabled_by: "user" }),
      entry("sensor.kitchen_temperature", { device_id: "d-kitchen", platform: "zha", device_class: "temperature" }),
      entry("sensor.kitchen_signal", { device_id: "d-kitchen", entity_category: "diagnostic" }),
      entry("switch.garden", { device_id: "d-garden", area_id: "office" }),
    ],
    devices: [
      {
        id: "d-kitchen",
        name: "Kitchen hub",
        name_by_user: null,
        manufacturer: null,
        model: null,
        sw_version: null,
        hw_version: null,
        area_id: "kitchen",
        labels: ["night"],
        disabled_by: null,
        entry_type: null,
        via_device_id: null,
        config_entries: [],
      },
      {
        id: "d-garden",
        name: "Garden",
        name_by_user: "Garden socket",
        manufacturer: null,
        model: null,
        sw_version: null,
        hw_version: null,
        area_id: "garden",
        labels: [],
        disabled_by: null,
        entry_type: null,
        via_device_id: null,
        config_entries: [],
      },
    ],
    areas: [
      { area_id: "kitchen", name: "Kitchen", floor_id: null, icon: null, labels: [], aliases: [], picture: null },
      { area_id: "office", name: "Home Office", floor_id: null, icon: null, labels: [], aliases: [], picture: null },
      { area_id: "garden", name: "Garden", floor_id: null, icon: null, labels: [], aliases: [], picture: null },
    ],
    labels: [
      { label_id: "voice", name: "Voice assistants", color: null, icon: null, description: null },
      { label_id: "night", name: "Night mode", color: null, icon: null, description: null },
    ],
  });
  return model;
}

function select(filter: Partial<BridgeFilter>): string[] {
  const model = home();
  const compiled = compileFilter(v.parse(BridgeFilterSchema, filter), model);
  return [...model.entityIds()].filter((id) => compiled.matches(viewEntity(model, id)!)).sort();
}

describe("bridge filter", () => {
  it("selects by domain; an empty include selects everything visible; disabled never, hidden only on request", () => {
    assert.deepEqual(select({ include: [{ type: "domain", value: "light" }] }), ["light.desk", "light.kitchen"]);
    assert.equal(select({}).length, 5);
    assert.ok(select({ includeHidden: true, include: [{ type: "domain", value: "light" }] }).includes("light.hidden"));
    assert.ok(!select({ includeHidden: true }).includes("light.disabled"));
  });

  it("matches areas by id or name, falling back to the device's area", () => {
    assert.deepEqual(select({ include: [{ type: "area", value: "kitchen" }] }), [
      "light.kitchen",
      "sensor.kitchen_signal",
      "sensor.kitchen_temperature",
    ]);
    assert.deepEqual(select({ include: [{ type: "area", value: "Home Office" }] }), ["light.desk", "switch.garden"]);
    // The entity's own area overrides its device's.
    assert.deepEqual(select({ include: [{ type: "area", value: "garden" }] }), []);
  });

  it("matches labels by id or display name, on the entity or its device", () => {
    assert.deepEqual(select({ include: [{ type: "label", value: "voice" }] }), ["light.desk"]);
    assert.deepEqual(select({ include: [{ type: "label", value: "Voice Assistants" }] }), ["light.desk"]);
    assert.deepEqual(select({ include: [{ type: "label", value: "Night mode" }] }).length, 3);
  });

  it("supports pattern, regex, platform, entity_category, device_class and device rules; exclude wins", () => {
    assert.deepEqual(select({ include: [{ type: "pattern", value: "sensor.kitchen_*" }] }), [
      "sensor.kitchen_signal",
      "sensor.kitchen_temperature",
    ]);
    assert.deepEqual(select({ include: [{ type: "regex", value: "^(light|switch)\\.(desk|garden)$" }] }), [
      "light.desk",
      "switch.garden",
    ]);
    assert.deepEqual(select({ include: [{ type: "platform", value: "zha" }] }), ["sensor.kitchen_temperature"]);
    assert.deepEqual(select({ include: [{ type: "entity_category", value: "diagnostic" }] }), ["sensor.kitchen_signal"]);
    assert.deepEqual(select({ include: [{ type: "device_class", value: "temperature" }] }), ["sensor.kitchen_temperature"]);
    assert.deepEqual(select({ include: [{ type: "device", value: "Garden socket" }] }), ["switch.garden"]);
    assert.deepEqual(
      select({ include: [{ type: "device", value: "d-kitchen" }], exclude: [{ type: "entity_category", value: "diagnostic" }] }),
      ["light.kitchen", "sensor.kitchen_temperature"],
    );
    assert.deepEqual(
      select({ include: [{ type: "domain", value: "light" }], exclude: [{ type: "domain", value: "light" }] }),
      [],
    );
  });

  it("selects by exposed_to: HA's Expose setting per assistant, from the registry entry or the expose list", () => {
    const model = new HomeAssistantModel();
    model.setRegistries({
      entities: [
        entry("light.kitchen", { options: { conversation: { should_expose: true }, "cloud.alexa": { should_expose: false } } }),
        entry("light.desk", { options: { "cloud.alexa": { should_expose: true }, sensor: { display_precision: 1 } } }),
        entry("switch.never_set", { options: {} }),
      ],
      devices: [],
      areas: [],
      labels: [],
    });
    // An entity without a registry entry (YAML, no unique_id): HA keeps its setting apart, the list reports it.
    model.applyCompressed({ a: { "sensor.yaml_only": { s: "1", a: {}, c: "c", lc: 1 } } }, true);
    model.setExposureList({
      "sensor.yaml_only": { conversation: true, "cloud.alexa": false },
      "light.kitchen": { "cloud.alexa": true }, // never disagrees in HA; the registry entry is what HA reads
    });
    const pick = (filter: Partial<BridgeFilter>) => {
      const compiled = compileFilter(v.parse(BridgeFilterSchema, filter), model);
      return [...model.entityIds()].filter((id) => compiled.matches(viewEntity(model, id)!)).sort();
    };
    assert.deepEqual(pick({ include: [{ type: "exposed_to", value: "conversation" }] }), ["light.kitchen", "sensor.yaml_only"]);
    assert.deepEqual(pick({ include: [{ type: "exposed_to", value: "Cloud.Alexa" }] }), ["light.desk"]);
    assert.deepEqual(pick({ include: [{ type: "exposed_to", value: "cloud.google_assistant" }] }), []);
    assert.deepEqual(
      pick({ include: [{ type: "domain", value: "light" }], exclude: [{ type: "exposed_to", value: "cloud.alexa" }] }),
      ["light.kitchen"],
    );
    assert.deepEqual(viewEntity(model, "light.kitchen")?.exposedTo, ["conversation"]);
    assert.deepEqual(viewEntity(model, "switch.never_set")?.exposedTo, [], "never set: HA's default is not guessed");
  });

  it("accepts assistant ids of HA's shape for exposed_to, and refuses anything else naming HA's assistants", () => {
    const parse = (value: string) => v.safeParse(BridgeFilterSchema, { include: [{ type: "exposed_to", value }] });
    for (const value of [
      "conversation",
      "cloud.alexa",
      "cloud.google_assistant",
      "google_assistant",
      "my_assistant",
      "Cloud.Alexa",
    ])
      assert.equal(parse(value).success, true, value);
    for (const value of ["alexa please", "cloud.", ".alexa", "a.b.c", "<script>", "x".repeat(70)]) {
      const result = parse(value);
      assert.equal(result.success, false, value);
      assert.match(
        describeIssues(result.issues ?? []),
        /is not an assistant id; Home Assistant's are conversation \(Assist\), cloud\.alexa/,
      );
    }
    // A stored value refused today matches nothing and is reported, like a stored regex.
    const compiled = compileFilter(
      { include: [{ type: "exposed_to", value: "alexa please" }], exclude: [], includeHidden: false },
      home(),
    );
    assert.equal(compiled.problems.length, 1);
    assert.match(compiled.problems[0] ?? "", /^include rule 1 \(exposed_to "alexa please"\): /);
  });

  it("refuses unknown rule types, empty values and invalid regular expressions", () => {
    assert.equal(v.safeParse(BridgeFilterSchema, { include: [{ type: "color", value: "red" }] }).success, false);
    assert.equal(v.safeParse(BridgeFilterSchema, { include: [{ type: "domain", value: " " }] }).success, false);
    assert.equal(v.safeParse(BridgeFilterSchema, { include: [{ type: "regex", value: "(" }] }).success, false);
  });

  it("refuses regular expressions the linear-time engine cannot run, naming the reason", () => {
    const refusal = (value: string) => {
      const result = v.safeParse(BridgeFilterSchema, {
        exclude: [
          { type: "domain", value: "light" },
          { type: "regex", value },
        ],
      });
      assert.equal(result.success, false, value);
      return describeIssues(result.issues ?? []);
    };
    assert.match(refusal("^lock\\.(?!test_)"), /^exclude\.1: value uses a lookahead/);
    assert.match(refusal("^(\\w+)\\.\\1$"), /^exclude\.1: value uses a backreference/);
    assert.match(refusal("x".repeat(300)), /longer than 256 characters/);
    // The issue's pattern is fine for RE2: accepted.
    assert.equal(v.safeParse(BridgeFilterSchema, { include: [{ type: "regex", value: ISSUE_PATTERN }] }).success, true);
  });

  it("evaluates the issue's pattern against a hostile entity id at once (RegExp took minutes)", { timeout: 30_000 }, () => {
    const model = new HomeAssistantModel();
    const hostile = `sensor.${"a".repeat(34)}`;
    model.setRegistries({ entities: [entry(hostile), entry("sensor.ok!")], devices: [], areas: [], labels: [] });
    const filter = v.parse(BridgeFilterSchema, { include: [{ type: "regex", value: ISSUE_PATTERN }] });
    const compiled = compileFilter(filter, model);
    assert.equal(compiled.matches(viewEntity(model, hostile)!), false);
    assert.equal(compiled.matches(viewEntity(model, "sensor.ok!")!), true);
    assert.deepEqual(compiled.problems, []);
  });

  it("compiles a stored filter whose regex is refused today: the rule matches nothing and is reported", () => {
    // Stored before the RE2 rules (bridges.json is not validated on load): no throw, no match, one problem each.
    const stored: BridgeFilter = {
      include: [{ type: "domain", value: "light" }],
      exclude: [
        { type: "regex", value: "^light\\.(?!desk)" },
        { type: "regex", value: "(light" },
      ],
      includeHidden: false,
    };
    const model = home();
    const compiled = compileFilter(stored, model);
    assert.deepEqual(compiled.problems, [
      'exclude rule 1 (regex "^light\\\\.(?!desk)"): value uses a lookahead ((?=…) or (?!…)), which the hub\'s linear-time regular expression engine (RE2) does not support',
      'exclude rule 2 (regex "(light"): value must be a valid regular expression (missing closing ) at `(light`)',
    ]);
    assert.ok(compiled.matches(viewEntity(model, "light.kitchen")!));
  });

  it("turns globs into anchored, case-insensitive expressions with everything else literal", () => {
    assert.ok(compileGlob("light.*").test("light.Kitchen"));
    assert.ok(!compileGlob("light.*").test("xlight.kitchen"));
    assert.ok(compileGlob("sensor.?_temp").test("sensor.a_temp"));
    assert.ok(!compileGlob("sensor.a+b").test("sensor.aab"));
  });
});
