import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { RawHttpConnection } from "../../lib/testing/raw-http.ts";
import { removeDataDir, startTestPortal, type TestPortal } from "./support/portal-harness.ts";

const post = (path: string, length: number) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

/**
 * Issue 16 item 12 (lib/http-server.ts is shared): a body the portal refused without reading (413 here) is read and
 * dropped when small, so the keep-alive connection goes on; a large one ends the connection properly.
 */
describe("portal: requests answered before their body was read", () => {
  let portal: TestPortal;
  let port: number;

  before(async () => {
    portal = await startTestPortal();
    port = portal.running.http.port;
  });
  after(async () => {
    await portal?.stop();
    if (portal) removeDataDir(portal.dataDir);
  });

  it("drains a small refused body and answers the next request on the same connection", async () => {
    for (let round = 0; round < 3; round++) {
      const connection = await RawHttpConnection.open(port);
      try {
        const length = 256 * 1024;
        await connection.write(post("/api/auth/login", length));
        await connection.writeFiller(16 * 1024);
        const refused = await connection.response();
        assert.equal(refused.status, 413);
        assert.equal(JSON.parse(refused.body).success, false);
        assert.notEqual(refused.headers.connection, "close");
        await sleep(700);
        assert.equal(await connection.writeFiller(length - 16 * 1024), length - 16 * 1024);
        await connection.write("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        const next = await connection.response();
        assert.equal(next.status, 200, `round ${round}`);
        assert.deepEqual(JSON.parse(next.body), { status: "ok" });
      } finally {
        connection.destroy();
      }
    }
  });

  it("answers a large refused body with Connection: close, then ends the connection cleanly", async () => {
    const connection = await RawHttpConnection.open(port);
    try {
      await connection.write(post("/api/auth/login", 64 * 1024 * 1024));
      await connection.writeFiller(64 * 1024);
      const refused = await connection.response();
      assert.equal(refused.status, 413);
      assert.equal(refused.headers.connection, "close");
      await connection.writeFiller(2 * 1024 * 1024);
      connection.socket.end();
      await connection.closed();
      assert.equal(connection.error, undefined, "no ECONNRESET or EPIPE");
      assert.equal(connection.ended, true);
    } finally {
      connection.destroy();
    }
  });
});
