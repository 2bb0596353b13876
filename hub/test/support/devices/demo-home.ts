/**
 * Every demo fixture: the entities a demo home contains, one per domain and device class.
 */
import type { DemoFixture } from "./demo-fixtures.ts";
import { CONTROL_FIXTURES } from "./demo-fixtures.ts";
import { SENSOR_FIXTURES } from "./demo-fixtures-sensors.ts";

export type { DemoFixture } from "./demo-fixtures.ts";

/** All fixtures, controls first. */
export const DEMO_FIXTURES: DemoFixture[] = [...CONTROL_FIXTURES, ...SENSOR_FIXTURES];
