import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Connection, callService } from "home-assistant-js-websocket";
import { createDemoHome } from "./demo-home.ts";
import { startHaSimulator } from "./simulator.ts";
import { connectClient, until } from "./test-helpers.ts";
import type { HaSimulator } from "./types.ts";

const rejection = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; message: string; translation_key?: string };
  }
  throw new Error("expected the call to fail");
};

describe("HA simulator: service effects", () => {
  let sim: HaSimulator;
  let conn: Connection;
  const call = (domain: string, service: string, entityId: string | string[], data?: Record<string, unknown>) =>
    callService(conn, domain, service, data, { entity_id: entityId });
  const state = (entityId: string) => sim.getState(entityId);
  const attr = (entityId: string, key: string) => sim.getState(entityId)?.attributes[key];

  before(async () => {
    sim = await startHaSimulator({ token: "t", home: createDemoHome(), motionMs: 0, codes: { "lock.back_door": "4711" } });
    conn = await connectClient(sim);
  });
  after(async () => {
    conn.close();
    await sim.close();
  });

  it("lights: brightness, colour conversion into supported modes, clamped colour temperature, off nulls", async () => {
    const result = (await call("light", "turn_on", "light.kitchen_spots", { brightness_pct: 50 })) as {
      context: { user_id: string };
    };
    assert.equal(typeof result.context.user_id, "string");
    assert.ok(!("response" in result), "HA adds `response` only when asked for");
    assert.equal(state("light.kitchen_spots")?.state, "on");
    assert.equal(attr("light.kitchen_spots", "brightness"), 128, "round(50 * 255 / 100) with Python rounding");
    assert.equal(attr("light.kitchen_spots", "color_mode"), "brightness");

    await call("light", "turn_on", "light.living_room_ceiling", { hs_color: [240, 100] });
    assert.equal(attr("light.living_room_ceiling", "color_mode"), "xy", "an xy-only Hue light gets hs converted to xy");
    assert.deepEqual(attr("light.living_room_ceiling", "xy_color"), [0.136, 0.04]);

    await call("light", "turn_on", "light.floor_lamp", { color_temp_kelvin: 9000 });
    assert.equal(attr("light.floor_lamp", "color_temp_kelvin"), 4000, "clamped to max_color_temp_kelvin");
    assert.equal(attr("light.floor_lamp", "color_mode"), "color_temp");

    await call("light", "turn_on", "light.desk_strip", { rgb_color: [0, 255, 0], brightness: 300 });
    assert.deepEqual(attr("light.desk_strip", "rgb_color"), [0, 255, 0]);
    assert.deepEqual(attr("light.desk_strip", "hs_color"), [120, 100]);
    assert.equal(attr("light.desk_strip", "brightness"), 255, "brightness is vol.Clamp'ed in HA, not rejected");

    await call("light", "turn_off", "light.desk_strip");
    assert.equal(state("light.desk_strip")?.state, "off");
    for (const key of ["brightness", "color_mode", "rgb_color", "hs_color", "xy_color", "effect"])
      assert.equal(attr("light.desk_strip", key), null, key);
    await call("light", "toggle", "light.desk_strip");
    assert.equal(attr("light.desk_strip", "brightness"), 255, "turning on restores the last brightness");
    await call("light", "turn_on", "light.desk_strip", { brightness: 0 });
    assert.equal(state("light.desk_strip")?.state, "off", "brightness 0 turns the light off");

    const invalid = await rejection(call("light", "turn_on", "light.kitchen_spots", { brightness_pct: 150 }));
    assert.deepEqual(invalid, {
      code: "invalid_format",
      message: "value must be at most 100 for dictionary value @ data['brightness_pct']",
    });
    const both = await rejection(call("light", "turn_on", "light.kitchen_spots", { brightness: 10, brightness_pct: 10 }));
    assert.match(both.message, /two or more values in the same group of exclusion 'brightness'/);
  });

  it("unknown services, missing and unavailable entities, unsupported features behave like HA", async () => {
    const missing = await rejection(call("light", "warp", "light.kitchen_spots"));
    assert.equal(missing.code, "not_found");
    assert.equal(missing.message, "Service light.warp not found.");
    assert.equal(missing.translation_key, "service_not_found");

    // HA logs "Referenced entities … are missing or not currently available" and succeeds.
    await call("light", "turn_on", ["light.does_not_exist", "switch.coffee_machine"]);
    assert.equal(state("switch.coffee_machine")?.state, "on", "another domain's entity is not touched by light.turn_on");
    const before = state("light.garden_spotlight");
    await call("light", "turn_on", "light.garden_spotlight");
    assert.deepEqual(state("light.garden_spotlight"), before, "unavailable entities are skipped");

    const unsupported = await rejection(call("cover", "set_cover_position", "cover.garage_door", { position: 40 }));
    assert.equal(unsupported.code, "service_validation_error");
    assert.equal(unsupported.translation_key, "service_not_supported");
    const noTarget = await rejection(callService(conn, "switch", "turn_on", {}));
    assert.equal(noTarget.code, "invalid_format");
  });

  it("switches, helpers, buttons, scenes, scripts and automations", async () => {
    await call("switch", "toggle", "switch.coffee_machine");
    assert.equal(state("switch.coffee_machine")?.state, "off");
    await call("input_boolean", "turn_on", "input_boolean.vacation_mode");
    assert.equal(state("input_boolean.vacation_mode")?.state, "on");
    await call("button", "press", "button.restart_router");
    assert.ok(Date.parse(state("button.restart_router")?.state ?? "") > Date.now() - 5000);
    await call("scene", "turn_on", "scene.movie_night");
    assert.ok(Date.parse(state("scene.movie_night")?.state ?? "") > Date.now() - 5000);
    await call("automation", "turn_off", "automation.hallway_motion_light");
    assert.equal(state("automation.hallway_motion_light")?.state, "off");
    await call("automation", "trigger", "automation.vacation_lights");
    assert.ok(attr("automation.vacation_lights", "last_triggered"));

    const seen: string[] = [];
    const unsubscribe = await conn.subscribeEvents<{ data: { entity_id: string; new_state: { state: string } } }>((event) => {
      if (event.data.entity_id === "script.goodnight") seen.push(event.data.new_state.state);
    }, "state_changed");
    await call("script", "turn_on", "script.goodnight");
    await until(() => seen.length === 2);
    assert.deepEqual(seen, ["on", "off"], "a script runs, then ends");
    const direct = (await callService(conn, "script", "leave_home", { reason: "test" }, undefined, true)) as {
      response: unknown;
    };
    assert.deepEqual(direct.response, {});
    unsubscribe();
  });

  it("sirens (with their feature bits), remotes and input buttons", async () => {
    // Not in the demo home: added as an integration would, with a state.
    sim.setState("siren.hall_siren", "off", { supported_features: 1 | 2, friendly_name: "Hall siren" });
    sim.setState("siren.turn_on_only", "off", { supported_features: 1 });
    sim.setState("remote.tv_remote", "off", { supported_features: 0 });
    sim.setState("input_button.doorbell_test", "unknown", {});
    await call("siren", "turn_on", "siren.hall_siren", { tone: "fire", volume_level: 0.5, duration: 3 });
    assert.equal(state("siren.hall_siren")?.state, "on");
    await call("siren", "toggle", "siren.hall_siren");
    assert.equal(state("siren.hall_siren")?.state, "off");
    const refused = await rejection(call("siren", "turn_off", "siren.turn_on_only"));
    assert.equal(refused.translation_key, "service_not_supported");
    assert.equal((await rejection(call("siren", "turn_on", "siren.hall_siren", { volume_level: 2 }))).code, "invalid_format");
    await call("remote", "turn_on", "remote.tv_remote", { activity: "Watch TV" });
    assert.equal(state("remote.tv_remote")?.state, "on");
    await call("remote", "turn_off", "remote.tv_remote");
    assert.equal(state("remote.tv_remote")?.state, "off");
    await call("input_button", "press", "input_button.doorbell_test");
    assert.ok(Date.parse(state("input_button.doorbell_test")?.state ?? "") > Date.now() - 5000);
  });

  it("covers and valves with and without positions, tilt, and homeassistant.toggle", async () => {
    await call("cover", "set_cover_position", "cover.living_room_blinds", { position: 20 });
    assert.deepEqual(
      [state("cover.living_room_blinds")?.state, attr("cover.living_room_blinds", "current_position")],
      ["open", 20],
    );
    await call("cover", "set_cover_tilt_position", "cover.living_room_blinds", { tilt_position: 70 });
    assert.equal(attr("cover.living_room_blinds", "current_tilt_position"), 70);
    await call("cover", "close_cover", "cover.living_room_blinds");
    assert.deepEqual(
      [state("cover.living_room_blinds")?.state, attr("cover.living_room_blinds", "current_position")],
      ["closed", 0],
    );
    await call("cover", "open_cover", "cover.garage_door");
    assert.equal(state("cover.garage_door")?.state, "open");
    assert.equal(attr("cover.garage_door", "current_position"), undefined, "a cover without position never reports one");
    await call("valve", "set_valve_position", "valve.garden_irrigation", { position: 30 });
    assert.deepEqual(
      [state("valve.garden_irrigation")?.state, attr("valve.garden_irrigation", "current_position")],
      ["open", 30],
    );
    await call("valve", "close_valve", "valve.main_water_valve");
    assert.equal(state("valve.main_water_valve")?.state, "closed");

    await callService(conn, "homeassistant", "toggle", undefined, {
      entity_id: ["light.hallway", "switch.garden_pump", "cover.shed_door"],
    });
    assert.equal(state("light.hallway")?.state, "on");
    assert.equal(state("switch.garden_pump")?.state, "on");
    assert.equal(state("cover.shed_door")?.state, "closed", "cover.toggle is a cover service too");
    await callService(conn, "homeassistant", "turn_off", undefined, { area_id: "garden" });
    assert.equal(state("switch.garden_pump")?.state, "off", "area targets reach entities whose own area is the garden");
  });

  it("locks and the alarm panel, with codes", async () => {
    await call("lock", "open", "lock.front_door");
    assert.equal(state("lock.front_door")?.state, "open");
    assert.equal((await rejection(call("lock", "open", "lock.back_door"))).translation_key, "service_not_supported");
    assert.equal((await rejection(call("lock", "lock", "lock.back_door", { code: "12" }))).translation_key, "add_default_code");
    assert.equal((await rejection(call("lock", "lock", "lock.back_door", { code: "1234" }))).code, "service_validation_error");
    await call("lock", "lock", "lock.back_door", { code: "4711" });
    assert.equal(state("lock.back_door")?.state, "locked");

    const noCode = await rejection(call("alarm_control_panel", "alarm_arm_away", "alarm_control_panel.home_alarm"));
    assert.equal(noCode.translation_key, "code_arm_required");
    await call("alarm_control_panel", "alarm_arm_night", "alarm_control_panel.home_alarm", { code: "1234" });
    assert.equal(state("alarm_control_panel.home_alarm")?.state, "armed_night");
    assert.equal(
      (await rejection(call("alarm_control_panel", "alarm_disarm", "alarm_control_panel.home_alarm", { code: "0000" }))).code,
      "service_validation_error",
    );
    await call("alarm_control_panel", "alarm_disarm", "alarm_control_panel.home_alarm", { code: "1234" });
    assert.equal(state("alarm_control_panel.home_alarm")?.state, "disarmed");
  });

  it("climate, fans and humidifiers", async () => {
    await call("climate", "set_temperature", "climate.living_room_thermostat", { target_temp_low: 19, target_temp_high: 25 });
    assert.deepEqual(
      [attr("climate.living_room_thermostat", "target_temp_low"), attr("climate.living_room_thermostat", "target_temp_high")],
      [19, 25],
    );
    await call("climate", "set_hvac_mode", "climate.living_room_thermostat", { hvac_mode: "heat" });
    assert.equal(state("climate.living_room_thermostat")?.state, "heat");
    assert.equal(attr("climate.living_room_thermostat", "target_temp_low"), null, "heat mode shows a single target");
    const range = await rejection(
      call("climate", "set_temperature", "climate.bedroom_radiator", { target_temp_low: 18, target_temp_high: 21 }),
    );
    assert.equal(range.translation_key, "missing_target_temperature_range_entity_feature");
    const tooHot = await rejection(call("climate", "set_temperature", "climate.bedroom_radiator", { temperature: 40 }));
    assert.equal(tooHot.message, "Validation error: Provided temperature 40.0 is not valid. Accepted range is 5.0 to 30.0.");
    await call("climate", "set_temperature", "climate.bedroom_radiator", { temperature: 16 });
    assert.equal(attr("climate.bedroom_radiator", "hvac_action"), "idle", "18.5 °C in the room is above 16 °C");
    assert.equal(
      (await rejection(call("climate", "set_hvac_mode", "climate.bedroom_radiator", { hvac_mode: "cool" }))).translation_key,
      "not_valid_hvac_mode",
    );
    await call("climate", "turn_off", "climate.bedroom_radiator");
    await call("climate", "turn_on", "climate.bedroom_radiator");
    assert.equal(state("climate.bedroom_radiator")?.state, "heat");
    await call("climate", "set_fan_mode", "climate.office_air_conditioner", { fan_mode: "silence" });
    assert.equal(attr("climate.office_air_conditioner", "fan_mode"), "silence");

    await call("fan", "set_percentage", "fan.bedroom_ceiling_fan", { percentage: 50 });
    assert.deepEqual([state("fan.bedroom_ceiling_fan")?.state, attr("fan.bedroom_ceiling_fan", "percentage")], ["on", 50]);
    await call("fan", "set_percentage", "fan.living_room_air_purifier", { percentage: 50 });
    assert.equal(attr("fan.living_room_air_purifier", "percentage"), 60, "five speeds: 50 % lands on speed 3");
    await call("fan", "set_preset_mode", "fan.living_room_air_purifier", { preset_mode: "Sleep" });
    assert.equal(attr("fan.living_room_air_purifier", "preset_mode"), "Sleep");
    assert.equal(
      (await rejection(call("fan", "set_preset_mode", "fan.living_room_air_purifier", { preset_mode: "Turbo" }))).translation_key,
      "not_valid_preset_mode",
    );
    await call("fan", "oscillate", "fan.office_desk_fan", { oscillating: false });
    assert.equal(attr("fan.office_desk_fan", "oscillating"), false);
    await call("fan", "set_direction", "fan.bedroom_ceiling_fan", { direction: "reverse" });
    assert.equal(attr("fan.bedroom_ceiling_fan", "direction"), "reverse");
    await call("fan", "turn_off", "fan.bedroom_ceiling_fan");
    assert.deepEqual([state("fan.bedroom_ceiling_fan")?.state, attr("fan.bedroom_ceiling_fan", "percentage")], ["off", 0]);

    await call("humidifier", "set_humidity", "humidifier.bedroom_humidifier", { humidity: 60 });
    assert.equal(attr("humidifier.bedroom_humidifier", "humidity"), 60);
    assert.equal(
      (await rejection(call("humidifier", "set_humidity", "humidifier.bedroom_humidifier", { humidity: 90 }))).translation_key,
      "humidity_out_of_range",
    );
    await call("humidifier", "set_mode", "humidifier.laundry_dehumidifier", { mode: "Dry" });
    await call("humidifier", "turn_on", "humidifier.laundry_dehumidifier");
    assert.deepEqual(
      [state("humidifier.laundry_dehumidifier")?.state, attr("humidifier.laundry_dehumidifier", "action")],
      ["on", "drying"],
    );
  });

  it("media players, vacuums, selects and numbers, and a response-only service", async () => {
    await call("media_player", "turn_off", "media_player.living_room_tv");
    assert.equal(state("media_player.living_room_tv")?.state, "off");
    assert.equal(attr("media_player.living_room_tv", "volume_level"), undefined, "an off player only shows capabilities");
    assert.ok(attr("media_player.living_room_tv", "source_list"));
    await call("media_player", "turn_on", "media_player.living_room_tv");
    assert.equal(attr("media_player.living_room_tv", "source"), "Live TV");
    await call("media_player", "volume_set", "media_player.living_room_tv", { volume_level: 0.4 });
    await call("media_player", "volume_mute", "media_player.living_room_tv", { is_volume_muted: true });
    await call("media_player", "select_source", "media_player.living_room_tv", { source: "Netflix" });
    assert.deepEqual(
      ["volume_level", "is_volume_muted", "source"].map((key) => attr("media_player.living_room_tv", key)),
      [0.4, true, "Netflix"],
    );
    await call("media_player", "media_pause", "media_player.kitchen_speaker");
    assert.equal(state("media_player.kitchen_speaker")?.state, "paused");

    await call("vacuum", "start", "vacuum.roborock_s8");
    assert.equal(state("vacuum.roborock_s8")?.state, "cleaning");
    await call("vacuum", "set_fan_speed", "vacuum.roborock_s8", { fan_speed: "turbo" });
    await call("vacuum", "return_to_base", "vacuum.roborock_s8");
    assert.deepEqual([state("vacuum.roborock_s8")?.state, attr("vacuum.roborock_s8", "fan_speed")], ["docked", "turbo"]);

    await call("input_select", "select_option", "input_select.house_mode", { option: "Night" });
    assert.equal(state("input_select.house_mode")?.state, "Night");
    await call("select", "select_next", "select.roborock_s8_mop_intensity");
    assert.equal(state("select.roborock_s8_mop_intensity")?.state, "intense");
    assert.equal(
      (await rejection(call("select", "select_option", "select.roborock_s8_mop_intensity", { option: "soaking" })))
        .translation_key,
      "not_valid_option",
    );
    await call("number", "set_value", "number.bedroom_radiator_temperature_offset", { value: -1.5 });
    assert.equal(state("number.bedroom_radiator_temperature_offset")?.state, "-1.5");
    assert.equal(
      (await rejection(call("number", "set_value", "number.bedroom_radiator_temperature_offset", { value: 9 }))).translation_key,
      "out_of_range",
    );
    await call("input_number", "set_value", "input_number.night_light_brightness", { value: 35 });
    assert.equal(state("input_number.night_light_brightness")?.state, "35.0");
    assert.equal(
      (await rejection(call("input_number", "set_value", "input_number.night_light_brightness", { value: 135 }))).code,
      "invalid_format",
    );

    const forecast = (await callService(
      conn,
      "weather",
      "get_forecasts",
      { type: "hourly" },
      { entity_id: "weather.forecast_home" },
      true,
    )) as {
      response: Record<string, { forecast: unknown[] }>;
    };
    assert.equal(forecast.response["weather.forecast_home"]?.forecast.length, 24);
    assert.equal(
      (await rejection(call("weather", "get_forecasts", "weather.forecast_home", { type: "daily" }))).translation_key,
      "service_lacks_response_request",
    );
    assert.equal(
      (await rejection(callService(conn, "light", "turn_on", undefined, { entity_id: "light.hallway" }, true))).translation_key,
      "service_does_not_support_response",
    );
  });

  it("records calls for tests and fires call_service events", async () => {
    sim.clearCalls();
    const events: { data: { domain: string; service: string } }[] = [];
    const unsubscribe = await conn.subscribeEvents<{ data: { domain: string; service: string } }>(
      (event) => events.push(event),
      "call_service",
    );
    const waiting = sim.waitForCall((c) => c.service === "turn_on" && c.entityIds.includes("switch.coffee_machine"));
    await callService(conn, "switch", "turn_on", { entity_id: "SWITCH.COFFEE_MACHINE" });
    const recorded = await waiting;
    assert.deepEqual(
      [recorded.domain, recorded.serviceData, recorded.target, recorded.returnResponse],
      ["switch", { entity_id: "SWITCH.COFFEE_MACHINE" }, undefined, false],
    );
    assert.equal(sim.calls.length, 1);
    await until(() => events.length === 1);
    assert.deepEqual([events[0]?.data.domain, events[0]?.data.service], ["switch", "turn_on"]);
    unsubscribe();
    await assert.rejects(
      sim.waitForCall(() => false, 20),
      /no matching service call/,
    );
  });
});

describe("HA simulator: motion over time", () => {
  it("covers, locks, vacuums and the alarm pass through their moving states", async () => {
    const sim = await startHaSimulator({ token: "t", motionMs: 250 });
    const conn = await connectClient(sim);
    const call = (domain: string, service: string, entityId: string, data?: Record<string, unknown>) =>
      callService(conn, domain, service, data, { entity_id: entityId });
    try {
      const seen = new Map<string, string[]>();
      await conn.subscribeEvents<{ data: { entity_id: string; new_state: { state: string } | null } }>((event) => {
        const list = seen.get(event.data.entity_id) ?? [];
        list.push(event.data.new_state?.state ?? "removed");
        seen.set(event.data.entity_id, list);
      }, "state_changed");
      const states = (entityId: string) => seen.get(entityId) ?? [];

      // The result is sent before the motion ends, so the client has the moving state when the call resolves.
      await call("cover", "close_cover", "cover.office_curtain");
      assert.deepEqual(states("cover.office_curtain"), ["closing"]);
      await call("lock", "unlock", "lock.front_door");
      assert.deepEqual(states("lock.front_door"), ["unlocking"]);
      await call("vacuum", "start", "vacuum.roborock_s8");
      await call("vacuum", "return_to_base", "vacuum.roborock_s8");
      assert.deepEqual(states("vacuum.roborock_s8"), ["cleaning", "returning"]);
      await call("alarm_control_panel", "alarm_arm_away", "alarm_control_panel.home_alarm", { code: "1234" });
      assert.deepEqual(states("alarm_control_panel.home_alarm"), ["arming"]);

      await until(() => states("alarm_control_panel.home_alarm").length === 2, 3000);
      assert.deepEqual(states("cover.office_curtain"), ["closing", "closed"]);
      assert.equal(sim.getState("cover.office_curtain")?.attributes.current_position, 0);
      assert.deepEqual(states("lock.front_door"), ["unlocking", "unlocked"]);
      assert.deepEqual(states("vacuum.roborock_s8"), ["cleaning", "returning", "docked"]);
      assert.deepEqual(states("alarm_control_panel.home_alarm"), ["arming", "armed_away"]);

      await call("cover", "open_cover", "cover.office_curtain");
      await new Promise((resolve) => setTimeout(resolve, 100));
      await call("cover", "stop_cover", "cover.office_curtain");
      const stopped = sim.getState("cover.office_curtain");
      assert.deepEqual(states("cover.office_curtain").slice(2), ["opening", "open"]);
      const position = stopped?.attributes.current_position as number;
      assert.ok(position > 0 && position < 100, `stopped part-way (${position})`);
    } finally {
      conn.close();
      await sim.close();
    }
  });
});
