import { createSocket } from "node:dgram";
import { Endpoint } from "@matter/main";
import { BridgedDeviceBasicInformationServer } from "@matter/main/behaviors/bridged-device-basic-information";
import { OnOffServer } from "@matter/main/behaviors/on-off";
import { OnOffLightDevice } from "@matter/main/devices/on-off-light";
import { TemperatureSensorDevice } from "@matter/main/devices/temperature-sensor";
import { createLogger, type Logger } from "../../../lib/logger.ts";
import { randomFreePort } from "../../../lib/testing/processes.ts";

/** A pino logger that drops everything (controllers in tests; the bridge side uses a memory logger). */
export function silentLogger(): Logger {
  return createLogger({ name: "test", level: "silent", destination: { write: () => undefined } });
}

/** A UDP port free for IPv4 and IPv6 now (dual-stack socket), picked like `freePort`'s TCP ports. */
export function freeUdpPort(): Promise<number> {
  return randomFreePort(async (port) => {
    const socket = createSocket({ type: "udp6", ipv6Only: false });
    const bound = await new Promise<boolean>((resolve) => {
      socket.once("error", () => resolve(false));
      socket.bind(port, () => resolve(true));
    });
    await new Promise<void>((resolve) => socket.close(() => resolve()));
    return bound;
  }, "UDP");
}

export { tempDir } from "../../../lib/testing/fixtures.ts";

/** Commands the bridge side received, in order, as `"<endpoint id>:<command>"`. */
export type CommandLog = string[];

/**
 * A bridged on/off light whose OnOff server records each command before acting on it, so tests see the command
 * itself (not only the state change, which a local write causes too).
 */
export function testLight(id: string, label: string, commands: CommandLog) {
  class RecordingOnOffServer extends OnOffServer {
    override on() {
      commands.push(`${this.endpoint.id}:on`);
      return super.on();
    }
    override off() {
      commands.push(`${this.endpoint.id}:off`);
      return super.off();
    }
    override toggle() {
      commands.push(`${this.endpoint.id}:toggle`);
      return super.toggle();
    }
  }
  return new Endpoint(OnOffLightDevice.with(BridgedDeviceBasicInformationServer, RecordingOnOffServer), {
    id,
    bridgedDeviceBasicInformation: { nodeLabel: label, serialNumber: `sn-${id}`, uniqueId: `uid-${id}`, reachable: true },
  });
}

/** A bridged temperature sensor (°C × 100). */
export function testTemperatureSensor(id: string, label: string, centiDegrees = 2150) {
  return new Endpoint(TemperatureSensorDevice.with(BridgedDeviceBasicInformationServer), {
    id,
    bridgedDeviceBasicInformation: { nodeLabel: label, serialNumber: `sn-${id}`, uniqueId: `uid-${id}`, reachable: true },
    temperatureMeasurement: { measuredValue: centiDegrees, minMeasuredValue: -4000, maxMeasuredValue: 8500 },
  });
}

export { until } from "../../../lib/testing/polling.ts";
