import type { HassEntity } from "../../src/home-assistant/types.ts";

/** One HA state a case can move an entity to, and the attribute value the controller must then be told. */
export interface ReportTarget {
  state: string;
  attributes?: Record<string, unknown>;
  expected: unknown;
}

/** HA state change → Matter attribute report, for one entity of a mapped domain (demo home entities). */
export interface ReportCase {
  entityId: string;
  cluster: string;
  attribute: string;
  /** Two targets: the first that differs from HA's current state is used, so cases work in any order. */
  targets: [ReportTarget, ReportTarget];
}

/** Values in Matter's encoding; enums by number with the name beside them. */
export const DOMAIN_REPORT_CASES: ReportCase[] = [
  {
    entityId: "switch.garden_pump",
    cluster: "onOff",
    attribute: "onOff",
    targets: [
      { state: "on", expected: true },
      { state: "off", expected: false },
    ],
  },
  {
    entityId: "input_boolean.guest_mode",
    cluster: "onOff",
    attribute: "onOff",
    targets: [
      { state: "on", expected: true },
      { state: "off", expected: false },
    ],
  },
  {
    // Speaker: LevelControl is the volume (0..1 → 0..254).
    entityId: "media_player.bedroom_speaker",
    cluster: "levelControl",
    attribute: "currentLevel",
    targets: [
      { state: "playing", attributes: { volume_level: 0.8 }, expected: 203 },
      { state: "playing", attributes: { volume_level: 0.25 }, expected: 64 },
    ],
  },
  {
    entityId: "vacuum.roborock_s8",
    cluster: "rvcOperationalState",
    attribute: "operationalState",
    targets: [
      { state: "cleaning", expected: 0x01 /* Running */ },
      { state: "returning", expected: 0x40 /* SeekingCharger */ },
    ],
  },
  {
    entityId: "valve.garden_irrigation",
    cluster: "valveConfigurationAndControl",
    attribute: "currentState",
    targets: [
      { state: "open", attributes: { current_position: 100 }, expected: 1 /* Open */ },
      { state: "closed", attributes: { current_position: 0 }, expected: 0 /* Closed */ },
    ],
  },
  {
    entityId: "humidifier.laundry_dehumidifier",
    cluster: "relativeHumidityMeasurement",
    attribute: "measuredValue",
    targets: [
      { state: "on", attributes: { current_humidity: 61 }, expected: 6100 },
      { state: "on", attributes: { current_humidity: 58 }, expected: 5800 },
    ],
  },
  {
    entityId: "input_select.house_mode",
    cluster: "modeSelect",
    attribute: "currentMode",
    targets: [
      { state: "Night", expected: 2 },
      { state: "Away", expected: 1 },
    ],
  },
  {
    entityId: "select.roborock_s8_mop_intensity",
    cluster: "modeSelect",
    attribute: "currentMode",
    targets: [
      { state: "intense", expected: 3 },
      { state: "mild", expected: 1 },
    ],
  },
  {
    // CO2 breakpoints (ppm): ≤750 Good, ≤1000 Fair, ≤1500 Moderate, ≤2000 Poor.
    entityId: "sensor.office_air_quality_carbon_dioxide",
    cluster: "airQuality",
    attribute: "airQuality",
    targets: [
      { state: "1600", expected: 4 /* Poor */ },
      { state: "600", expected: 1 /* Good */ },
    ],
  },
  {
    entityId: "binary_sensor.hallway_smoke",
    cluster: "smokeCoAlarm",
    attribute: "smokeState",
    targets: [
      { state: "on", expected: 2 /* Critical */ },
      { state: "off", expected: 0 /* Normal */ },
    ],
  },
];

/** The first target that would change `current` (state or one of the target's attributes). */
export function changingTarget(current: HassEntity | undefined, targets: readonly ReportTarget[]): ReportTarget {
  const differs = (target: ReportTarget) =>
    current === undefined ||
    current.state !== target.state ||
    Object.entries(target.attributes ?? {}).some(([name, value]) => current.attributes[name] !== value);
  const target = targets.find(differs);
  if (!target) throw new Error(`no target changes ${current?.entity_id}`);
  return target;
}
