// A process that runs a bridge the way main.ts will: it owns SIGTERM/SIGINT itself and closes the bridge and the
// Matter environment on the signal. matter-environment.test.ts starts it, sends a signal and reads these lines:
//   ready {"SIGTERM":0,...}   after the bridge is online (listener counts before ours are installed)
//   signal SIGTERM            our handler ran
//   closed {"exitCode":...}   bridge and environment closed; the process must then end by itself
import { assertNetworkIsolated } from "../../../lib/testing/isolation.ts";
import { BridgeNode } from "../../src/matter/bridge/node.ts";
import { createMatterEnvironment } from "../../src/matter/matter-environment.ts";
import { freeUdpPort, silentLogger, tempDir, testLight } from "./matter-fixtures.ts";

assertNetworkIsolated();
const dir = await tempDir("matter-signal");
const matter = createMatterEnvironment({ storagePath: dir.path, log: silentLogger(), mdnsInterface: "lo" });
const bridge = new BridgeNode({
  id: "signal-bridge",
  name: "Signal Bridge",
  port: await freeUdpPort(),
  vendorId: 0xfff1,
  productId: 0x8000,
  vendorName: "Matter Hub",
  productName: "Hub Bridge",
  serialNumber: "signal-1",
  uniqueId: "signal-1-uid",
  environment: matter,
});
await bridge.addDevice(testLight("light-1", "Light", []));
await bridge.start();

const counts = Object.fromEntries(
  (["SIGTERM", "SIGINT", "SIGUSR2", "SIGABRT"] as const).map((signal) => [signal, process.listenerCount(signal)]),
);
const onSignal = (signal: NodeJS.Signals) => {
  process.stdout.write(`signal ${signal}\n`);
  void (async () => {
    await bridge.stop();
    await matter.close();
    await dir.remove();
    process.stdout.write(`closed ${JSON.stringify({ exitCode: process.exitCode ?? null })}\n`);
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
  })();
};
process.on("SIGTERM", onSignal);
process.on("SIGINT", onSignal);
process.stdout.write(`ready ${JSON.stringify(counts)}\n`);
