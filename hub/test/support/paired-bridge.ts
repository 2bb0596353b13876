import assert from "node:assert/strict";
import {
  api,
  type BridgeRecord,
  devicesOf,
  type NodeId,
  startBridgeWorld,
  startController,
  waitForStatus,
} from "./bridge-fixture.ts";
import { freeUdpPort } from "./matter-fixtures.ts";

/**
 * A started hub on a demo-home simulator with one running bridge exposing `entityIds`, commissioned by a test
 * controller over loopback; `ep(entityId)` is the entity's endpoint number (asserting it is exposed). Whatever was
 * started is closed again when the setup fails half-way.
 */
export async function startPairedBridge(entityIds: readonly string[], label = "test controller") {
  const { sim, hub } = await startBridgeWorld();
  const call = api(hub);
  let closeController: (() => Promise<void>) | undefined;
  const close = async () => {
    await closeController?.();
    await hub.stop();
    await sim.close();
  };
  try {
    const started = await startController(label);
    closeController = started.close;
    const port = await freeUdpPort();
    const created = await call<BridgeRecord>("POST", "/api/matter/bridges", {
      name: "Test bridge",
      port,
      filter: { include: entityIds.map((value) => ({ type: "entity_id", value })) },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const bridge = await waitForStatus(call, created.body.id, "running");
    const nodeId: NodeId = await started.controller.commission(bridge.commissioning.manualPairingCode, { ip: "::1", port });
    const endpoints = new Map<string, number>();
    for (const [entityId, device] of await devicesOf(call, bridge.id)) {
      if (device.endpointNumber !== null) endpoints.set(entityId, device.endpointNumber);
    }
    return {
      sim,
      hub,
      call,
      controller: started.controller,
      bridge,
      nodeId,
      endpoints,
      ep(entityId: string): number {
        const number = endpoints.get(entityId);
        assert.ok(number, `${entityId} is exposed`);
        return number;
      },
      close,
    };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}
