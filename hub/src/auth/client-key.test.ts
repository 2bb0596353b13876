import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Hono } from "hono";
import { memoryLogger } from "../../../lib/testing/fixtures.ts";
import { hubErrorHandler } from "../http/errors.ts";
import { basicAuth } from "./basic-auth.middleware.ts";
import { BasicAuth } from "./basic-auth.ts";
import { basicAuthorization } from "./basic-header.ts";
import { ingressProxyOf, SUPERVISOR_INGRESS_PROXY } from "./client-key.ts";
import { EnvCredentials } from "./env-credentials.ts";

const { log } = memoryLogger();
const right = basicAuthorization("admin", "the right password");
const wrong = (i: number) => basicAuthorization("admin", `guess ${i}`);

/** A request as @hono/node-server hands it over: the socket's remote address in the bindings. */
function from(app: Hono, address: string, authorization: string, headers: Record<string, string> = {}) {
  return app.request(
    "/api/thing",
    { headers: { Authorization: authorization, ...headers } },
    {
      incoming: { socket: { remoteAddress: address } },
    },
  );
}

describe("who a login attempt counts against", () => {
  let dataDir: string;
  const apps = async (ingressProxy: string | undefined) => {
    const auth = await BasicAuth.load({
      dataDir,
      env: new EnvCredentials("admin", "the right password"),
      log,
      ingressProxy,
      scrypt: { N: 2 ** 10, r: 8, p: 1 },
    });
    const app = new Hono();
    app.onError(hubErrorHandler(log));
    app.use(basicAuth(auth));
    app.get("/api/thing", (c) => c.json({ ok: true }));
    return app;
  };
  /** Six distinct wrong passwords: the sixth is refused by the brake. */
  const flood = async (app: Hono, address: string, headers: Record<string, string> = {}) => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await from(app, address, wrong(i), headers)).status);
    return statuses;
  };

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "hub-client-key-"));
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("trusts the ingress proxy's HA user only in the add-on (allow-list naming the Supervisor's proxy)", () => {
    assert.equal(ingressProxyOf(["172.30.32.2", "127.0.0.1", "::1"]), SUPERVISOR_INGRESS_PROXY);
    assert.equal(ingressProxyOf([]), undefined);
    assert.equal(ingressProxyOf(["192.168.1.20"]), undefined);
  });

  it("behind ingress, brakes per HA user: one user's wrong guesses never lock out another", async () => {
    const app = await apps(SUPERVISOR_INGRESS_PROXY);
    assert.deepEqual(
      await flood(app, SUPERVISOR_INGRESS_PROXY, { "X-Remote-User-Id": "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6" }),
      [401, 401, 401, 401, 401, 429],
    );
    const other = await from(app, SUPERVISOR_INGRESS_PROXY, right, { "X-Remote-User-Id": "0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f" });
    assert.equal(other.status, 200);
    // Ingress requests without a user id share one key, apart from the named users.
    assert.equal((await from(app, SUPERVISOR_INGRESS_PROXY, right.replace("Basic", "basic"))).status, 200);
  });

  it("outside the add-on ignores X-Remote-User-Id: a client cannot pick a fresh key per request", async () => {
    const app = await apps(undefined);
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await from(app, SUPERVISOR_INGRESS_PROXY, wrong(i), { "X-Remote-User-Id": `user${i}` })).status);
    }
    assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429]);
  });

  it("counts an IPv4 address the same whether it arrives plain or IPv4-mapped", async () => {
    const app = await apps(undefined);
    for (let i = 0; i < 5; i++) assert.equal((await from(app, i % 2 ? "::ffff:10.0.0.7" : "10.0.0.7", wrong(i))).status, 401);
    const refused = await from(app, "::ffff:10.0.0.7", wrong(99));
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get("Retry-After"), "1");
    assert.equal((await from(app, "10.0.0.8", right)).status, 200, "a neighbour is not slowed down");
  });
});
