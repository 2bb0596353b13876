/**
 * Test support for the device layer: a real matter.js ServerNode with an aggregator in a temp-storage Environment
 * (the RiDDiX bring-up pattern, docs/research-notes.md "Bring-up tests"), a fake ActionSink that records calls and
 * can refuse them, and HA state fixtures. Only for tests run inside the private network namespace
 * (scripts/isolate.sh).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Endpoint, ServerNode, VendorId } from "@matter/main";
import { AggregatorEndpoint } from "@matter/main/endpoints/aggregator";
import { memoryLogger } from "../../../../lib/testing/fixtures.ts";
import { assertNetworkIsolated } from "../../../../lib/testing/isolation.ts";
import { createDeviceEndpoint } from "../../../src/matter/devices/endpoint-types.ts";
import { createMatterEnvironment, type MatterEnvironment } from "../../../src/matter/matter-environment.ts";
import type { ActionSink, Companions, DeviceTypeKey, EntitySnapshot, PinCheck } from "../../../src/matter/model/contract.ts";

export { hassState, snapshot } from "./ha-fixtures.ts";

/** One recorded HA action call. */
export interface RecordedCall {
  action: string;
  entityId: string;
  data?: Record<string, unknown>;
}

/**
 * An ActionSink that records every call; set `failWith` to make HA refuse the next calls, `hold` to keep their
 * answers back until it settles (a command in flight).
 */
export class FakeActionSink implements ActionSink {
  readonly calls: RecordedCall[] = [];
  failWith: Error | undefined;
  hold: Promise<unknown> | undefined;

  async call(call: RecordedCall): Promise<void> {
    this.calls.push(call);
    if (this.hold) await this.hold;
    if (this.failWith) throw this.failWith;
  }

  /** Forgets recorded calls, stops refusing and holding. */
  reset(): void {
    this.calls.length = 0;
    this.failWith = undefined;
    this.hold = undefined;
  }
}

/**
 * Invokes a cluster command on the server side, as a controller's invoke would (own transaction, rollback on
 * error); a handler that throws synchronously still yields a rejected promise.
 */
export async function invoke(endpoint: Endpoint, behavior: string, command: string, input?: unknown): Promise<unknown> {
  const implementation = endpoint.commandsOf(behavior)[command];
  if (!implementation) throw new Error(`${endpoint} has no command ${behavior}.${command}`);
  return implementation(input as never);
}

/** A started bridge node for device tests. */
export interface TestBridge {
  node: ServerNode;
  aggregator: Endpoint;
  actions: FakeActionSink;
  /** Creates and adds a device endpoint (before or after start). */
  add(
    key: DeviceTypeKey,
    entity: EntitySnapshot,
    options?: { pinCheck?: PinCheck; unit?: string; companions?: Companions },
  ): Promise<Endpoint>;
  start(): Promise<void>;
  close(): Promise<void>;
}

let ports = 0;

/** A ServerNode + aggregator in a fresh temp-storage Environment; call {@link TestBridge.close} in `after`. */
export async function createTestBridge(name = "devices"): Promise<TestBridge> {
  assertNetworkIsolated();
  const storagePath = mkdtempSync(join(tmpdir(), `hub-${name}-`));
  const environment: MatterEnvironment = createMatterEnvironment({
    storagePath,
    log: memoryLogger("info").log,
    mdnsInterface: "lo",
    logLevel: "error",
  });
  ports++;
  const node = await ServerNode.create({
    id: `test-${name}`,
    environment: environment.environment,
    network: { port: 0 },
    commissioning: { passcode: 20202021, discriminator: (3840 + ports) % 4096 },
    productDescription: { name: "Device test bridge", deviceType: AggregatorEndpoint.deviceType },
    basicInformation: {
      vendorName: "Matter Hub tests",
      vendorId: VendorId(0xfff1),
      productName: "Device test bridge",
      productId: 0x8000,
      nodeLabel: "Device test bridge",
      serialNumber: `serial-${name}`,
      uniqueId: `unique-${name}`,
      hardwareVersion: 1,
      softwareVersion: 1,
    },
  });
  const aggregator = new Endpoint(AggregatorEndpoint, { id: "aggregator" });
  await node.add(aggregator);
  const actions = new FakeActionSink();
  let count = 0;
  return {
    node,
    aggregator,
    actions,
    async add(key, entity, options = {}) {
      const endpoint = await createDeviceEndpoint({
        id: `${entity.entityId.replace(".", "_")}-${count++}`,
        snapshot: entity,
        key,
        actions,
        pinCheck: options.pinCheck,
        unitSystem: { temperature: options.unit ?? "°C" },
        companions: options.companions,
      });
      await aggregator.add(endpoint);
      return endpoint;
    },
    start: () => node.start(),
    async close() {
      await node.close();
      await environment.close();
      rmSync(storagePath, { recursive: true, force: true });
    },
  };
}
