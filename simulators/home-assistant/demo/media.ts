/** A TV, two speakers and a robot vacuum with its accessories. */

import { isoFromEpoch } from "../core/time.ts";
import type { HomeBuilder } from "../home-builder.ts";
import { MediaFeature as M } from "../services/media-player.ts";
import { VacuumFeature as V } from "../services/vacuum.ts";
import { binaryAttrs, enumSensorAttrs, sensorAttrs } from "./attributes.ts";

const TV_FEATURES =
  M.PAUSE |
  M.VOLUME_SET |
  M.VOLUME_MUTE |
  M.PREVIOUS_TRACK |
  M.NEXT_TRACK |
  M.TURN_ON |
  M.TURN_OFF |
  M.PLAY_MEDIA |
  M.VOLUME_STEP |
  M.SELECT_SOURCE |
  M.STOP |
  M.PLAY;
const SONOS_FEATURES =
  M.PAUSE |
  M.SEEK |
  M.VOLUME_SET |
  M.VOLUME_MUTE |
  M.PREVIOUS_TRACK |
  M.NEXT_TRACK |
  M.PLAY_MEDIA |
  M.VOLUME_STEP |
  M.SELECT_SOURCE |
  M.STOP |
  M.CLEAR_PLAYLIST |
  M.PLAY |
  M.SHUFFLE_SET |
  M.BROWSE_MEDIA |
  M.REPEAT_SET |
  M.GROUPING;

export function addMedia(home: HomeBuilder, now: number): void {
  home.device({
    key: "tv",
    name: "Living Room TV",
    manufacturer: "LG",
    model: "OLED55C3",
    integration: "webostv",
    area: "living_room",
    sw_version: "23.20.58",
    connection: "mac",
    labels: ["voice_assistants"],
  });
  home.entity({
    entity_id: "media_player.living_room_tv",
    expose: { conversation: true },
    device: "tv",
    name: null,
    state: "on",
    deviceClass: "tv",
    attributes: {
      source_list: ["HDMI 1", "HDMI 2", "Live TV", "Netflix", "YouTube", "Spotify"],
      volume_level: 0.18,
      is_volume_muted: false,
      media_content_type: "channel",
      media_title: "NPO 1",
      source: "Live TV",
      device_class: "tv",
      supported_features: TV_FEATURES,
    },
  });

  home.device({
    key: "kitchen_speaker",
    name: "Kitchen Speaker",
    manufacturer: "Sonos",
    model: "One SL",
    integration: "sonos",
    area: "kitchen",
    sw_version: "16.3",
    hw_version: "1.20.1.6-1.1",
    connection: "mac",
  });
  home.entity({
    entity_id: "media_player.kitchen_speaker",
    device: "kitchen_speaker",
    name: null,
    state: "playing",
    changedAgo: 14,
    updatedAgo: 1,
    deviceClass: "speaker",
    attributes: {
      source_list: ["Line-in", "Radio 538", "Discover Weekly"],
      group_members: ["media_player.kitchen_speaker"],
      volume_level: 0.24,
      is_volume_muted: false,
      media_content_id: "x-sonos-spotify:spotify%3atrack%3a4uLU6hMCjMI75M1A2tKUQC",
      media_content_type: "music",
      media_duration: 213,
      media_position: 42,
      media_position_updated_at: isoFromEpoch(now - 60),
      media_title: "Never Gonna Give You Up",
      media_artist: "Rick Astley",
      media_album_name: "Whenever You Need Somebody",
      media_track: 1,
      shuffle: false,
      repeat: "off",
      device_class: "speaker",
      supported_features: SONOS_FEATURES,
    },
  });
  home.entity({
    entity_id: "switch.kitchen_speaker_night_sound",
    device: "kitchen_speaker",
    name: "Night sound",
    category: "config",
    state: "off",
    attributes: {},
  });

  home.device({
    key: "bedroom_speaker",
    name: "Bedroom Speaker",
    manufacturer: "Apple",
    model: "HomePod mini",
    integration: "apple_tv",
    area: "bedroom",
    sw_version: "18.2",
  });
  home.entity({
    entity_id: "media_player.bedroom_speaker",
    device: "bedroom_speaker",
    name: null,
    state: "idle",
    deviceClass: "speaker",
    labels: ["night_mode"],
    attributes: {
      volume_level: 0.3,
      device_class: "speaker",
      supported_features: M.PAUSE | M.VOLUME_SET | M.PLAY_MEDIA | M.VOLUME_STEP | M.STOP | M.PLAY | M.TURN_ON | M.TURN_OFF,
    },
  });

  home.device({
    key: "vacuum",
    name: "Roborock S8",
    manufacturer: "Roborock",
    model: "roborock.vacuum.a51",
    integration: "roborock",
    area: "hallway",
    sw_version: "02.15.84",
  });
  home.entity({
    entity_id: "vacuum.roborock_s8",
    device: "vacuum",
    name: null,
    state: "docked",
    changedAgo: 300,
    attributes: {
      fan_speed_list: ["off", "quiet", "balanced", "turbo", "max", "max_plus", "custom"],
      fan_speed: "balanced",
      supported_features:
        V.PAUSE | V.STOP | V.RETURN_HOME | V.FAN_SPEED | V.SEND_COMMAND | V.LOCATE | V.CLEAN_SPOT | V.STATE | V.START,
    },
  });
  home.entity({
    entity_id: "sensor.roborock_s8_battery",
    device: "vacuum",
    name: "Battery",
    category: "diagnostic",
    state: "100",
    deviceClass: "battery",
    attributes: sensorAttrs("battery", "%"),
  });
  // Roborock's charging sensor: on while the vacuum sits on its dock (the hub reports it as rechargeable).
  home.entity({
    entity_id: "binary_sensor.roborock_s8_charging",
    device: "vacuum",
    name: "Charging",
    category: "diagnostic",
    state: "on",
    changedAgo: 300,
    deviceClass: "battery_charging",
    attributes: binaryAttrs("battery_charging"),
  });
  home.entity({
    entity_id: "sensor.roborock_s8_status",
    device: "vacuum",
    name: "Status",
    state: "charging",
    deviceClass: "enum",
    attributes: enumSensorAttrs([
      "starting",
      "charger_disconnected",
      "idle",
      "remote_control_active",
      "cleaning",
      "returning_home",
      "manual_mode",
      "charging",
      "charging_problem",
      "paused",
      "spot_cleaning",
      "error",
      "shutting_down",
      "updating",
      "docking",
      "going_to_target",
      "zoned_cleaning",
      "segment_cleaning",
      "emptying_the_bin",
      "charging_complete",
      "device_offline",
    ]),
  });
  home.entity({
    entity_id: "binary_sensor.roborock_s8_water_shortage",
    device: "vacuum",
    name: "Water shortage",
    category: "diagnostic",
    state: "off",
    deviceClass: "problem",
    attributes: binaryAttrs("problem"),
  });
  home.entity({
    entity_id: "select.roborock_s8_mop_intensity",
    device: "vacuum",
    name: "Mop intensity",
    category: "config",
    state: "moderate",
    attributes: { options: ["off", "mild", "moderate", "intense"] },
  });
  home.entity({
    entity_id: "button.roborock_s8_reset_main_brush_consumable",
    device: "vacuum",
    name: "Reset main brush consumable",
    category: "config",
    state: "unknown",
    attributes: {},
  });
  home.entity({
    entity_id: "switch.roborock_s8_do_not_disturb",
    device: "vacuum",
    name: "Do not disturb",
    category: "config",
    state: "on",
    labels: ["night_mode"],
    attributes: {},
  });
}
