import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { RunningHttpServer } from "../../lib/http-server.ts";
import { RawHttpConnection } from "../../lib/testing/raw-http.ts";
import { buildExport } from "../src/bridge-export/export-format.ts";
import type { BridgeConfig } from "../src/bridges/bridge-config.ts";
import type { EntityMapping } from "../src/entity-mappings/entity-mapping-store.ts";
import { createTestHub, type TestHub } from "./support/test-context.ts";

const MiB = 1024 * 1024;

/** An export file of `bridges` bridges with `mappings` entity mappings each, as the hub itself writes it. */
function exportFile(bridges: number, mappings: number): string {
  const entries = Array.from({ length: bridges }, (_, b) => ({
    config: {
      id: `bridge${b}`,
      name: `Bridge ${b}`,
      port: 5600 + b,
      filter: { include: [{ type: "domain", value: "light" }], exclude: [] },
      priority: 100,
      serverMode: false,
      autoStart: false,
    } as unknown as BridgeConfig,
    mappings: Array.from({ length: mappings }, (_, i) => ({
      entityId: `light.living_room_ceiling_spot_${i}`,
      matterDeviceType: "extended_color_light",
      customName: `Spot ${i}`,
      disabled: false,
    })) as EntityMapping[],
  }));
  return JSON.stringify(buildExport(entries, "9.9.9"), null, 2);
}

/** Issue 16 item 4: a 300 MiB JSON body took the hub's memory to 1.2 GB; bodies are now limited before they are read. */
describe("hub: request body limits", () => {
  let hub: TestHub;
  let http: RunningHttpServer;
  const url = (path: string) => `http://127.0.0.1:${http.port}${path}`;
  const bridgeCount = async () => ((await (await fetch(url("/api/matter/bridges"))).json()) as unknown[]).length;

  before(async () => {
    hub = await createTestHub();
    http = await hub.hub.listen();
  });
  after(async () => {
    await hub?.stop();
  });

  it("refuses a JSON body over 1 MiB from its Content-Length (413), having read next to nothing of it", async () => {
    const connection = await RawHttpConnection.open(http.port);
    try {
      await connection.write(
        `POST /api/matter/bridges HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${300 * MiB}\r\n\r\n`,
      );
      await connection.writeFiller(64 * 1024);
      const refused = await connection.response();
      assert.equal(refused.status, 413);
      assert.deepEqual(JSON.parse(refused.body), { error: `Request body larger than ${MiB} bytes` });
    } finally {
      connection.destroy();
    }
    assert.equal(await bridgeCount(), 0);
  });

  it("stops reading a streamed (chunked) JSON body once it passes 1 MiB, and answers 413 while the client still sends", async () => {
    const connection = await RawHttpConnection.open(http.port);
    let sent = 0;
    try {
      await connection.write(
        "POST /api/matter/bridges HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
      );
      const chunk = Buffer.concat([Buffer.from("10000\r\n"), Buffer.alloc(0x10000, 0x20), Buffer.from("\r\n")]);
      // A client that would send 64 MiB: the answer must come long before the end.
      while (!connection.answered && sent < 64 * MiB && (await connection.write(chunk))) sent += 0x10000;
      const refused = await connection.response();
      assert.equal(refused.status, 413);
      assert.match(JSON.parse(refused.body).error, /larger than 1048576 bytes/);
      assert.ok(sent < 16 * MiB, `answered after ${sent} bytes`);
    } finally {
      connection.destroy();
    }
    assert.equal(await bridgeCount(), 0);
  });

  it("takes a bridge import up to 16 MiB (a 2 MB export file previews), and refuses a larger one", async () => {
    const file = exportFile(2, 5000);
    assert.ok(file.length > 1.5 * MiB, `${file.length} bytes`);
    const body = `{"data":${file},"options":{}}`;
    const preview = await fetch(url("/api/bridges/import/preview"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    assert.equal(preview.status, 200, await preview.clone().text());
    const planned = (await preview.json()) as { bridges: { action: string }[] };
    assert.equal(planned.bridges.length, 2);

    const connection = await RawHttpConnection.open(http.port);
    try {
      await connection.write(
        `POST /api/bridges/import HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${17 * MiB}\r\n\r\n`,
      );
      const refused = await connection.response();
      assert.equal(refused.status, 413);
      assert.deepEqual(JSON.parse(refused.body), { error: `Request body larger than ${16 * MiB} bytes` });
    } finally {
      connection.destroy();
    }
    assert.equal(await bridgeCount(), 0);
  });
});
