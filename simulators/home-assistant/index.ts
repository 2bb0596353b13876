/** The Home Assistant simulator: a faithful WebSocket API, a demo home and synthetic homes for scale work. */
export { createDemoHome } from "./demo-home.ts";
export { generateHome } from "./generate-home.ts";
export { createHomeBuilder, type DeviceSpec, type EntitySpec, type HomeBuilder } from "./home-builder.ts";
export { startHaSimulator } from "./simulator.ts";
export type { HaSimulator, HaSimulatorOptions, RecordedCall, ServiceBehavior } from "./types.ts";
