import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo, LookupFunction } from "node:net";
import { after, before, describe, it } from "node:test";
import { HttpError } from "../../../lib/http-error.ts";
import { memoryLogger } from "../../../lib/testing/fixtures.ts";
import { createHomeserverAgent, HomeserverClient, HomeserverUnreachable } from "./homeserver-client.ts";
import type { HomeserverPath } from "./homeserver-path.ts";
import { OutboundPolicy } from "./outbound-policy.ts";

/** Every name resolves to `address`, as a DNS answer an attacker controls would. */
const resolveTo =
  (address: string): LookupFunction =>
  (_hostname, options, callback) =>
    options.all
      ? (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family: 4 }])
      : callback(null, address, 4);

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

  it("connects to the address the checked lookup returned, and refuses a denied one before any byte is sent", async () => {
    const allowed = createHomeserverAgent(new OutboundPolicy(), resolveTo("127.0.0.1"));
    const denied = createHomeserverAgent(new OutboundPolicy(), resolveTo("169.254.169.254"));
    try {
      const ok = await new HomeserverClient(allowed, `http://homeserver.test:${port}`, "syt_secret", log).call(
        "GET",
        "/_matrix/client/versions",
        { admin: true },
      );
      assert.equal(ok.status, 200);
      const before = seen.length;
      const client = new HomeserverClient(denied, `http://homeserver.test:${port}`, "syt_secret", log);
      await assert.rejects(client.call("GET", "/_matrix/client/versions", { admin: true }), (error: unknown) => {
        assert.ok(error instanceof HomeserverUnreachable);
        assert.equal(error.kind, "denied");
        assert.match(error.message, /homeserver\.test \(169\.254\.169\.254\) is a link-local or cloud metadata address/);
        assert.equal(error.message.includes("syt_secret"), false);
        return true;
      });
      assert.equal(seen.length, before);
      const literal = new HomeserverClient(denied, "http://[fe80::1]:8008", "syt_secret", log);
      await assert.rejects(literal.call("GET", "/_matrix/client/versions"), (error: unknown) => {
        return error instanceof HomeserverUnreachable && error.kind === "denied";
      });
    } finally {
      await Promise.all([allowed.close(), denied.close()]);
    }
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
