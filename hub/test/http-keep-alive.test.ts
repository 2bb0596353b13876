import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { RunningHttpServer } from "../../lib/http-server.ts";
import { RawHttpConnection } from "../../lib/testing/raw-http.ts";
import { createTestHub, type TestHub } from "./support/test-context.ts";

const post = (path: string, length: number, type = "application/json") =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n`;

/**
 * Issue 16 item 12: when the hub answers before reading a request body (401, 404, 413...), the connection must either
 * stay usable (the rest of the body is read and dropped) or be closed properly (`Connection: close`, then a clean
 * FIN while what the client still sends is read), never reset under a client that did nothing wrong.
 */
describe("hub: requests answered before their body was read", () => {
  let hub: TestHub;
  let http: RunningHttpServer;

  before(async () => {
    hub = await createTestHub();
    http = await hub.hub.listen();
  });
  after(async () => {
    await hub?.stop();
  });

  it("reads and drops a small unread body, and answers the next request on the same keep-alive connection", async () => {
    for (let round = 0; round < 3; round++) {
      const connection = await RawHttpConnection.open(http.port);
      try {
        const length = 256 * 1024;
        await connection.write(post("/api/no-such-route", length));
        await connection.writeFiller(16 * 1024);
        const early = await connection.response();
        assert.equal(early.status, 404);
        assert.notEqual(early.headers.connection, "close", "a small body is drained, the connection stays");
        // A client on a slow link: the rest of the body comes well after the answer.
        await sleep(700);
        assert.equal(await connection.writeFiller(length - 16 * 1024), length - 16 * 1024);
        await connection.write("GET /api/health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        const next = await connection.response();
        assert.equal(next.status, 200, `round ${round}: the second request on the connection is answered`);
        assert.equal(connection.error, undefined);
      } finally {
        connection.destroy();
      }
    }
  });

  it("closes properly after refusing a large body: the answer says Connection: close, then a clean end, no reset", async () => {
    for (let round = 0; round < 3; round++) {
      const connection = await RawHttpConnection.open(http.port);
      try {
        await connection.write(post("/api/no-such-route", 64 * 1024 * 1024));
        await connection.writeFiller(64 * 1024);
        const refused = await connection.response();
        assert.ok(refused.status >= 400 && refused.status < 500, `status ${refused.status}`);
        assert.equal(refused.headers.connection, "close");
        assert.deepEqual(Object.keys(JSON.parse(refused.body)), ["error"]);
        // The client goes on sending for a while (it has not read the answer yet): the hub keeps reading, so no
        // reset can wipe the answer from the client's buffers; then the connection ends with a FIN.
        await connection.writeFiller(2 * 1024 * 1024);
        connection.socket.end();
        await connection.closed();
        assert.equal(connection.error, undefined, "no ECONNRESET or EPIPE");
        assert.equal(connection.ended, true);
      } finally {
        connection.destroy();
      }
    }
  });
});
