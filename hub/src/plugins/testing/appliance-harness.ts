/**
 * The appliance cloud plugin under test: the real VeSync-style client against the simulated cloud (in-process
 * fetch), a fake plugin context and a fake clock. A typical account holds one device of every family the plugin
 * knows, plus unsupported ones.
 */
import { ApplianceCloudPlugin } from "../builtin/appliance-cloud/appliance-plugin.ts";
import { SimulatedCloud, type SimulatedDevice } from "../builtin/appliance-cloud/simulated-cloud.ts";
import { VeSyncClient } from "../builtin/appliance-cloud/vesync-client.ts";
import { FakeClock, settle } from "../clock.ts";
import { type FakeContext, fakeBuiltinServices, fakeContext } from "./fake-plugin-context.ts";

export const EMAIL = "cook@example.com";
export const PASSWORD = "fryer-Pa55word";

export const ACCOUNT: SimulatedDevice[] = [
  {
    cid: "fry2",
    name: "Dual fryer",
    model: "CAF-DC601S",
    online: true,
    status: {
      baskets: [
        { id: 1, cookStatus: "cooking" },
        { id: 2, cookStatus: "standby" },
      ],
    },
  },
  { cid: "fry1", name: "Small fryer", model: "CAF-L423S", online: true, status: { cookStatus: "paused" } },
  { cid: "plug", name: "Kettle plug", model: "ESW15-USA", online: true, status: { enabled: false } },
  { cid: "puri", name: "Bedroom purifier", model: "Core300S", online: true, status: { enabled: true, mode: "auto", level: 3 } },
  { cid: "tower", name: "Tower fan", model: "LTF-F422S", online: true, status: { enabled: true, mode: "manual", level: 6 } },
  { cid: "humi", name: "Nursery humidifier", model: "Classic300S", online: true, status: { enabled: true, humidity: 45.5 } },
  { cid: "bulb", name: "Desk bulb", model: "ESL100", online: true, status: {} },
  { cid: "dimmer", name: "Hall dimmer", model: "ESWD16", online: true, status: {} },
  { cid: "thermo", name: "Hall thermostat", model: "LTM-A401S-WUS", online: true, status: {} },
  { cid: "oldfry", name: "Old fryer", model: "CS158-AF", online: true, status: {} },
  { cid: "oldplug", name: "Old plug", model: "ESW01-EU", online: true, status: {} },
];

export interface ApplianceWorld {
  plugin: ApplianceCloudPlugin;
  cloud: SimulatedCloud;
  context: FakeContext;
  clock: FakeClock;
  status: { line: string | null; details: Record<string, unknown> | undefined };
  configure(config: Record<string, unknown>): Promise<void>;
  advance(ms: number): Promise<void>;
}

export async function applianceWorld(
  options: { devices?: SimulatedDevice[]; twoFactor?: boolean } = {},
): Promise<ApplianceWorld> {
  const cloud = new SimulatedCloud({
    email: EMAIL,
    password: PASSWORD,
    twoFactor: options.twoFactor,
    devices: options.devices ?? ACCOUNT,
  });
  const clock = new FakeClock();
  const context = fakeContext();
  const status: ApplianceWorld["status"] = { line: null, details: undefined };
  const plugin = new ApplianceCloudPlugin(
    fakeBuiltinServices({ clock, setStatus: (line, details) => Object.assign(status, { line, details }) }),
    new VeSyncClient({ fetch: cloud.fetch }),
  );
  await plugin.onStart(context);
  await plugin.onConfigure();
  return {
    plugin,
    cloud,
    context,
    clock,
    status,
    async configure(config) {
      await plugin.onConfigChanged(config);
      await settle();
    },
    advance: (ms) => clock.advance(ms),
  };
}
