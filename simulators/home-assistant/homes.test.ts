import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { HassEntity } from "../../hub/src/home-assistant/types.ts";
import { createDemoHome } from "./demo-home.ts";
import { generateHome } from "./generate-home.ts";
import { CoverFeature } from "./services/cover.ts";
import { FanFeature } from "./services/fan.ts";
import { LockFeature } from "./services/security.ts";
import { homeProblems } from "./test-helpers.ts";

const home = createDemoHome();
const inDomain = (domain: string) => home.states.filter((s) => s.entity_id.startsWith(`${domain}.`));
const deviceClasses = (domain: string) => new Set(inDomain(domain).map((s) => s.attributes.device_class));
const features = (s: HassEntity) => (s.attributes.supported_features as number | undefined) ?? 0;
const entry = (entityId: string) => home.entities.find((e) => e.entity_id === entityId);

describe("demo home", () => {
  it("is a consistent home of realistic size with stable ids", () => {
    assert.ok(home.states.length >= 60, `${home.states.length} states`);
    assert.deepEqual(homeProblems(home), []);
    const again = createDemoHome();
    assert.deepEqual(
      again.entities.map((e) => e.id),
      home.entities.map((e) => e.id),
    );
    assert.deepEqual(
      again.devices.map((d) => d.id),
      home.devices.map((d) => d.id),
    );
    for (const area of ["living_room", "kitchen", "bedroom", "bathroom", "office", "hallway", "garage", "garden"]) {
      assert.ok(
        home.areas.some((a) => a.area_id === area),
        area,
      );
    }
    assert.ok(home.labels.some((l) => l.name === "Voice assistants") && home.labels.some((l) => l.name === "Night mode"));
    const makers = new Set(home.devices.map((d) => d.manufacturer));
    for (const maker of [
      "Signify Netherlands B.V.",
      "IKEA of Sweden",
      "Aqara",
      "Shelly",
      "ecobee",
      "Sonos",
      "Roborock",
      "Yale",
    ]) {
      assert.ok(makers.has(maker), maker);
    }
  });

  it("has every domain the hub maps", () => {
    for (const domain of [
      "light",
      "switch",
      "input_boolean",
      "button",
      "scene",
      "script",
      "automation",
      "cover",
      "lock",
      "climate",
      "fan",
      "sensor",
      "binary_sensor",
      "media_player",
      "vacuum",
      "valve",
      "humidifier",
      "water_heater",
      "alarm_control_panel",
      "input_select",
      "select",
      "number",
      "input_number",
      "event",
      "camera",
      "weather",
      "sun",
    ]) {
      assert.ok(inDomain(domain).length > 0, domain);
    }
  });

  it("has every light colour mode, switch, cover, sensor and binary sensor device class", () => {
    const modes = new Set(inDomain("light").flatMap((s) => (s.attributes.supported_color_modes as string[] | undefined) ?? []));
    for (const mode of ["onoff", "brightness", "color_temp", "hs", "xy", "rgb"]) assert.ok(modes.has(mode), mode);
    for (const dc of ["outlet", "switch"]) assert.ok(deviceClasses("switch").has(dc), dc);
    for (const dc of ["blind", "shade", "garage", "curtain", "awning", "gate", "door", "shutter"])
      assert.ok(deviceClasses("cover").has(dc), dc);
    const sensorClasses = deviceClasses("sensor");
    for (const dc of [
      "temperature",
      "humidity",
      "pressure",
      "illuminance",
      "battery",
      "power",
      "energy",
      "voltage",
      "current",
      "carbon_dioxide",
      "pm25",
      "pm10",
      "volatile_organic_compounds",
      "carbon_monoxide",
      "nitrogen_dioxide",
      "ozone",
      "aqi",
      "volume_flow_rate",
      "gas",
      "water",
      "moisture",
    ]) {
      assert.ok(sensorClasses.has(dc), dc);
    }
    const binaryClasses = deviceClasses("binary_sensor");
    for (const dc of [
      "door",
      "window",
      "garage_door",
      "opening",
      "motion",
      "occupancy",
      "presence",
      "moisture",
      "smoke",
      "gas",
      "carbon_monoxide",
      "battery",
      "battery_charging",
      "plug",
      "tamper",
      "vibration",
      "problem",
    ]) {
      assert.ok(binaryClasses.has(dc), dc);
    }
  });

  it("has the capability variants: covers, locks, climates, fans, media players, valves, humidifiers", () => {
    const covers = inDomain("cover");
    assert.ok(covers.some((c) => "current_position" in c.attributes && "current_tilt_position" in c.attributes));
    assert.ok(covers.some((c) => "current_position" in c.attributes && !("current_tilt_position" in c.attributes)));
    assert.ok(covers.some((c) => !("current_position" in c.attributes) && !(features(c) & CoverFeature.SET_POSITION)));
    const locks = inDomain("lock");
    assert.ok(locks.some((l) => features(l) & LockFeature.OPEN) && locks.some((l) => !(features(l) & LockFeature.OPEN)));
    assert.ok(locks.some((l) => typeof l.attributes.code_format === "string"));

    const modes = (s: HassEntity) => (s.attributes.hvac_modes as string[]).filter((m) => m !== "off");
    const climates = inDomain("climate");
    assert.ok(
      climates.some((c) => modes(c).join() === "heat"),
      "heat only",
    );
    assert.ok(
      climates.some((c) => modes(c).includes("cool") && !modes(c).includes("heat")),
      "cool only",
    );
    assert.ok(
      climates.some((c) => c.state === "heat_cool" && typeof c.attributes.target_temp_low === "number"),
      "heat_cool range",
    );
    assert.ok(
      climates.some((c) => modes(c).includes("auto")),
      "auto",
    );

    const fans = inDomain("fan");
    for (const feature of [FanFeature.SET_SPEED, FanFeature.PRESET_MODE, FanFeature.OSCILLATE, FanFeature.DIRECTION]) {
      assert.ok(
        fans.some((f) => features(f) & feature),
        String(feature),
      );
    }
    const players = inDomain("media_player");
    assert.ok(players.some((p) => p.attributes.device_class === "tv" && Array.isArray(p.attributes.source_list)));
    assert.ok(players.some((p) => p.attributes.device_class === "speaker" && typeof p.attributes.volume_level === "number"));
    const valves = inDomain("valve");
    assert.ok(
      valves.some((v) => "current_position" in v.attributes) && valves.some((v) => !("current_position" in v.attributes)),
    );
    assert.deepEqual(
      new Set(inDomain("humidifier").map((h) => h.attributes.device_class)),
      new Set(["humidifier", "dehumidifier"]),
    );
    assert.ok(inDomain("humidifier").every((h) => Array.isArray(h.attributes.available_modes)));
    assert.equal(inDomain("camera")[0]?.state, "idle");
  });

  it("has what composed devices need: batteries on locks and motion sensors, a metered plug, a solar inverter", () => {
    const deviceOf = (entityId: string) => entry(entityId)?.device_id ?? null;
    /** Device classes (with units for sensors) of the entities on one device. */
    const onDevice = (deviceId: string | null) =>
      home.states
        .filter((s) => deviceId !== null && deviceOf(s.entity_id) === deviceId)
        .map((s) => `${s.entity_id.split(".")[0]}:${s.attributes.device_class}:${s.attributes.unit_of_measurement ?? ""}`);
    const batteryPowered = [
      ...inDomain("lock"),
      ...inDomain("binary_sensor").filter((s) => s.attributes.device_class === "motion"),
    ]
      // The doorbell's person detection is a wired camera's, no battery.
      .filter((s) => s.entity_id !== "binary_sensor.front_doorbell_person");
    assert.ok(batteryPowered.length >= 4, `${batteryPowered.length} locks and motion sensors`);
    for (const s of batteryPowered) assert.ok(onDevice(deviceOf(s.entity_id)).includes("sensor:battery:%"), s.entity_id);
    assert.ok(onDevice(deviceOf("lock.front_door")).includes("binary_sensor:battery:"), "a battery-low binary sensor");
    assert.ok(onDevice(deviceOf("vacuum.roborock_s8")).includes("binary_sensor:battery_charging:"), "a charging sensor");

    const plug = onDevice(deviceOf("switch.coffee_machine"));
    for (const part of ["switch:outlet:", "sensor:power:W", "sensor:energy:kWh", "sensor:voltage:V", "sensor:current:A"]) {
      assert.ok(plug.includes(part), part);
    }

    const inverter = deviceOf("sensor.solar_inverter_pv_power");
    const parts = onDevice(inverter);
    assert.ok(parts.includes("sensor:power:W") && parts.includes("sensor:energy:kWh"), parts.join());
    assert.ok(!parts.some((p) => /^(switch|light):/.test(p)), "nothing to switch on the inverter");
    const total = home.states.find((s) => s.entity_id === "sensor.solar_inverter_total_yield");
    assert.equal(total?.attributes.state_class, "total_increasing");
    const device = home.devices.find((d) => d.id === inverter);
    assert.equal(device?.area_id, "garage");
    assert.deepEqual(device?.labels, ["energy"]);
  });

  it("has the awkward cases of a real installation", () => {
    const disabled = home.entities.filter((e) => e.disabled_by !== null);
    assert.ok(disabled.some((e) => e.disabled_by === "user") && disabled.some((e) => e.disabled_by === "integration"));
    assert.ok(home.entities.some((e) => e.hidden_by === "user" && home.states.some((s) => s.entity_id === e.entity_id)));
    assert.ok(home.states.some((s) => s.state === "unavailable"));
    const registered = new Set(home.entities.map((e) => e.entity_id));
    const unregistered = home.states.filter((s) => !registered.has(s.entity_id)).map((s) => s.entity_id);
    assert.ok(unregistered.includes("sensor.outdoor_feels_like") && unregistered.includes("automation.porch_light_at_sunset"));
    assert.equal(entry("script.goodnight")?.device_id, null, "scripts have no device");
    const override = home.entities.find((e) => {
      const device = home.devices.find((d) => d.id === e.device_id);
      return e.area_id !== null && device?.area_id && device.area_id !== e.area_id;
    });
    assert.ok(override, "an entity's own area overrides its device's");
    assert.ok(
      home.entities.some((e) => e.entity_category === "config") && home.entities.some((e) => e.entity_category === "diagnostic"),
    );
    assert.ok(home.entities.some((e) => e.labels.length > 0) && home.devices.some((d) => d.labels.length > 0));
    assert.ok(home.devices.some((d) => d.entry_type === "service"));
    assert.equal(home.states.find((s) => s.entity_id === "light.kitchen_spots")?.attributes.friendly_name, "Kitchen Spots");
    assert.equal(home.states.find((s) => s.entity_id === "sensor.p1_meter_power")?.attributes.friendly_name, "P1 Meter Power");
  });
});

describe("generateHome", () => {
  it("gives exactly n entities, consistently", () => {
    for (const n of [0, 1, 2, 37, 250]) {
      const home = generateHome(n, 11);
      assert.equal(home.states.length, n, `n=${n}`);
      assert.deepEqual(homeProblems(home), [], `n=${n}`);
    }
    assert.throws(() => generateHome(-1), /non-negative integer/);
  });

  it("is deterministic for a seed and differs between seeds", () => {
    assert.deepEqual(generateHome(120, 5), generateHome(120, 5));
    assert.notDeepEqual(
      generateHome(120, 5).states.map((s) => s.entity_id),
      generateHome(120, 6).states.map((s) => s.entity_id),
    );
  });

  // No time limit here: tests do not time (a loaded CI machine failed 2 s); the bench's start-up runs build it.
  it("builds 5000 entities of mixed domains on devices in areas", () => {
    const home = generateHome(5000, 42);
    assert.equal(home.states.length, 5000);
    const domains = new Map<string, number>();
    for (const state of home.states) {
      const domain = state.entity_id.split(".")[0] ?? "";
      domains.set(domain, (domains.get(domain) ?? 0) + 1);
    }
    for (const domain of [
      "light",
      "switch",
      "sensor",
      "binary_sensor",
      "cover",
      "climate",
      "fan",
      "lock",
      "media_player",
      "input_boolean",
    ]) {
      assert.ok((domains.get(domain) ?? 0) > 0, domain);
    }
    assert.ok((domains.get("light") ?? 0) > (domains.get("climate") ?? 0));
    assert.ok(home.devices.length > 1000 && home.areas.length >= 100);
    assert.ok(home.devices.every((d) => d.area_id !== null));
  });
});
