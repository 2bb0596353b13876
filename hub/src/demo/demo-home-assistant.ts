import { randomBytes } from "node:crypto";
import type { Logger } from "../../../lib/logger.ts";
import { createDemoHome } from "../../../simulators/home-assistant/demo-home.ts";
import { startHaSimulator } from "../../../simulators/home-assistant/index.ts";

export interface DemoHomeAssistant {
  url: string;
  token: string;
  close(): Promise<void>;
}

/**
 * Demo mode's Home Assistant: the simulator with the demo home, on loopback only, with a random token (it is
 * a real WebSocket server and nothing outside this machine should talk to it).
 */
export async function startDemoHomeAssistant(log: Logger): Promise<DemoHomeAssistant> {
  const token = randomBytes(24).toString("base64url");
  const simulator = await startHaSimulator({ host: "127.0.0.1", port: 0, token, home: createDemoHome(), log });
  log.info({ url: simulator.url }, "DEMO MODE: simulated Home Assistant with the demo home is running");
  return { url: simulator.url, token, close: () => simulator.close() };
}
