/** Locks, the alarm panel, doors and openings, presence, safety sensors and the doorbell camera. */

import type { HomeBuilder } from "../home-builder.ts";
import { AlarmFeature as A, LockFeature } from "../services/security.ts";
import { binaryAttrs, sensorAttrs } from "./attributes.ts";

export function addSecurity(home: HomeBuilder): void {
  /** The battery level HA's integrations give a battery-powered device (the hub shows it on the device's endpoint). */
  const battery = (device: string, entityId: string, percent: string) =>
    home.entity({
      entity_id: entityId,
      device,
      name: "Battery",
      category: "diagnostic",
      state: percent,
      deviceClass: "battery",
      attributes: sensorAttrs("battery", "%"),
    });

  home.device({
    key: "front_lock",
    name: "Front Door Lock",
    manufacturer: "Nuki",
    model: "Smart Lock 4th Gen Pro",
    integration: "nuki",
    area: "hallway",
    sw_version: "4.2.8",
    labels: ["security", "voice_assistants"],
  });
  home.entity({
    entity_id: "lock.front_door",
    expose: { conversation: false, "cloud.alexa": true },
    device: "front_lock",
    name: null,
    state: "locked",
    changedAgo: 35,
    attributes: { supported_features: LockFeature.OPEN },
  });
  battery("front_lock", "sensor.front_door_lock_battery", "87");
  home.entity({
    entity_id: "binary_sensor.front_door_lock_battery_critical",
    device: "front_lock",
    name: "Battery critical",
    category: "diagnostic",
    state: "off",
    deviceClass: "battery",
    attributes: binaryAttrs("battery"),
  });

  home.device({
    key: "back_lock",
    name: "Back Door Lock",
    manufacturer: "Yale",
    model: "Assure Lock 2 Touch",
    model_id: "YRD450",
    integration: "yale",
    area: "kitchen",
    labels: ["security"],
  });
  home.entity({
    entity_id: "lock.back_door",
    device: "back_lock",
    name: null,
    state: "unlocked",
    changedAgo: 90,
    attributes: { code_format: "^\\d{4,8}$", supported_features: 0 },
  });
  battery("back_lock", "sensor.back_door_lock_battery", "46");

  home.device({
    key: "shed_lock",
    name: "Shed Lock",
    manufacturer: "Aqara",
    model: "Smart Lock U100",
    integration: "matter",
    area: "garden",
  });
  home.entity({
    entity_id: "lock.shed",
    device: "shed_lock",
    name: null,
    state: "jammed",
    changedAgo: 240,
    attributes: { supported_features: 0 },
  });
  // Low enough for a controller's "battery low" (≤ 20 %).
  battery("shed_lock", "sensor.shed_lock_battery", "15");

  home.device({
    key: "alarm",
    name: "Home Alarm",
    manufacturer: "Home Assistant",
    model: "Manual alarm",
    integration: "manual",
    area: "hallway",
    entry_type: "service",
    labels: ["security"],
  });
  home.entity({
    entity_id: "alarm_control_panel.home_alarm",
    device: "alarm",
    name: null,
    state: "disarmed",
    changedAgo: 50,
    attributes: {
      code_format: "number",
      changed_by: null,
      code_arm_required: true,
      supported_features: A.ARM_HOME | A.ARM_AWAY | A.ARM_NIGHT | A.TRIGGER | A.ARM_CUSTOM_BYPASS | A.ARM_VACATION,
    },
  });

  const contact = (
    key: string,
    name: string,
    area: string,
    deviceClass: string,
    state: string,
    extra: () => void = () => undefined,
  ) => {
    home.device({
      key,
      name,
      manufacturer: "Aqara",
      model: "Door and Window Sensor",
      model_id: "lumi.sensor_magnet.aq2",
      integration: "zha",
      area,
      via: "zigbee_coordinator",
      connection: "zigbee",
      labels: ["security"],
    });
    home.entity({
      entity_id: `binary_sensor.${key}`,
      device: key,
      name: null,
      state,
      deviceClass,
      attributes: binaryAttrs(deviceClass),
    });
    battery(key, `sensor.${key}_battery`, "76");
    extra();
  };
  contact("front_door_contact", "Front Door Contact", "hallway", "door", "off", () =>
    home.entity({
      entity_id: "binary_sensor.front_door_contact_tamper",
      device: "front_door_contact",
      name: "Tamper",
      category: "diagnostic",
      state: "off",
      deviceClass: "tamper",
      attributes: binaryAttrs("tamper"),
    }),
  );
  contact("bedroom_window", "Bedroom Window", "bedroom", "window", "on");
  contact("garage_door_tilt", "Garage Door Tilt", "garage", "garage_door", "off");
  contact("mailbox", "Mailbox", "garden", "opening", "off");

  home.device({
    key: "hall_motion",
    name: "Hallway Motion",
    manufacturer: "Signify Netherlands B.V.",
    model: "Hue motion sensor",
    model_id: "SML001",
    integration: "hue",
    area: "hallway",
    via: "hue_bridge",
    sw_version: "2.53.6",
  });
  home.entity({
    entity_id: "binary_sensor.hallway_motion",
    device: "hall_motion",
    name: "Motion",
    state: "off",
    changedAgo: 7,
    deviceClass: "motion",
    attributes: binaryAttrs("motion"),
  });
  home.entity({
    entity_id: "sensor.hallway_motion_illuminance",
    device: "hall_motion",
    name: "Illuminance",
    state: "38",
    deviceClass: "illuminance",
    attributes: sensorAttrs("illuminance", "lx"),
  });
  home.entity({
    entity_id: "sensor.hallway_motion_temperature",
    device: "hall_motion",
    name: "Temperature",
    state: "20.4",
    deviceClass: "temperature",
    attributes: sensorAttrs("temperature", "°C"),
  });
  battery("hall_motion", "sensor.hallway_motion_battery", "64");
  home.entity({
    entity_id: "switch.hallway_motion_motion_sensor_enabled",
    device: "hall_motion",
    name: "Motion sensor enabled",
    category: "config",
    state: "on",
    attributes: {},
  });

  home.device({
    key: "office_presence",
    name: "Office Presence",
    manufacturer: "Aqara",
    model: "Presence Sensor FP2",
    model_id: "PS-S02D",
    integration: "homekit_controller",
    area: "office",
  });
  home.entity({
    entity_id: "binary_sensor.office_presence_occupancy",
    device: "office_presence",
    name: "Occupancy",
    state: "on",
    deviceClass: "occupancy",
    attributes: binaryAttrs("occupancy"),
  });
  home.device({
    key: "ep1",
    name: "Bedroom Presence",
    manufacturer: "Everything Smart Technology",
    model: "Everything Presence One",
    integration: "esphome",
    area: "bedroom",
    sw_version: "2024.12.2",
    connection: "mac",
  });
  home.entity({
    entity_id: "binary_sensor.bedroom_presence",
    device: "ep1",
    name: "Presence",
    state: "off",
    deviceClass: "presence",
    attributes: binaryAttrs("presence"),
  });

  const safety = (key: string, name: string, model: string, area: string, deviceClass: string) => {
    home.device({
      key,
      name,
      manufacturer: "HEIMAN",
      model,
      integration: "zha",
      area,
      via: "zigbee_coordinator",
      connection: "zigbee",
      labels: ["security"],
    });
    home.entity({
      entity_id: `binary_sensor.${key}`,
      device: key,
      name: null,
      state: "off",
      changedAgo: 5000,
      deviceClass,
      attributes: binaryAttrs(deviceClass),
    });
  };
  safety("hallway_smoke", "Hallway Smoke Detector", "SmokeSensor-EF-3.0", "hallway", "smoke");
  safety("kitchen_gas", "Kitchen Gas Detector", "GASSensor-EM", "kitchen", "gas");
  safety("bedroom_co", "Bedroom CO Detector", "COSensor-EM", "bedroom", "carbon_monoxide");
  safety("kitchen_leak", "Kitchen Leak Sensor", "WaterSensor-EM", "kitchen", "moisture");
  home.device({
    key: "washer_vibration",
    name: "Washing Machine Vibration",
    manufacturer: "Aqara",
    model: "Vibration Sensor",
    model_id: "lumi.vibration.aq1",
    integration: "zha",
    area: "laundry",
    via: "zigbee_coordinator",
    connection: "zigbee",
  });
  home.entity({
    entity_id: "binary_sensor.washing_machine_vibration",
    device: "washer_vibration",
    name: null,
    state: "on",
    changedAgo: 20,
    deviceClass: "vibration",
    attributes: binaryAttrs("vibration"),
  });

  home.device({
    key: "doorbell",
    name: "Front Doorbell",
    manufacturer: "Reolink",
    model: "Video Doorbell WiFi",
    integration: "reolink",
    area: "hallway",
    sw_version: "v3.0.0.3215",
    connection: "mac",
    labels: ["security"],
  });
  home.entity({
    entity_id: "camera.front_doorbell",
    device: "doorbell",
    name: "Snapshot",
    state: "idle",
    attributes: {
      access_token: "5c2d4e4f1b2a3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5",
      entity_picture:
        "/api/camera_proxy/camera.front_doorbell?token=5c2d4e4f1b2a3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5",
      supported_features: 0,
    },
  });
  home.entity({
    entity_id: "event.front_doorbell_ring",
    device: "doorbell",
    name: "Ring",
    state: "unknown",
    deviceClass: "doorbell",
    attributes: { event_types: ["ring"], event_type: null, device_class: "doorbell" },
  });
  home.entity({
    entity_id: "binary_sensor.front_doorbell_person",
    device: "doorbell",
    name: "Person",
    state: "off",
    deviceClass: "motion",
    attributes: binaryAttrs("motion"),
  });
}
