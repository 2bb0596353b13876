import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { HttpError } from "../../../lib/http-error.ts";
import { memoryLogger } from "../../../lib/testing/fixtures.ts";
import { createHomeserverAgent, HomeserverClient } from "./homeserver-client.ts";
import type { HomeserverPath } from "./homeserver-path.ts";

describe("HomeserverClient", () => {
  const seen: { path: string; authorization: string | undefined }[] = [];
  const server = createServer((request, response) => {
    seen.push({ path: request.url ?? "", authorization: request.headers.authorization });
    response.writeHead(200, { "content-type": "application/json" }).end('{"versions":["v1.11"]}');
  });
  let port = 0;
  const { log } = memoryLogger();
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it("never sends a request whose path would resolve to another endpoint", async () => {
    const agent = createHomeserverAgent();
    try {
      const client = new HomeserverClient(agent, `http://127.0.0.1:${port}`, "syt_secret", log);
      const before = seen.length;
      for (const path of ["/_synapse/admin/v1/registration_tokens/..", "/_synapse/admin/v1/registration_tokens/%2e%2e"]) {
        await assert.rejects(
          client.call("GET", path as HomeserverPath, { admin: true }),
          (error: unknown) => error instanceof HttpError && error.status === 400,
        );
      }
      assert.equal(seen.length, before, "no request was sent");
    } finally {
      await agent.close();
    }
  });
});
