import assert from "node:assert/strict";
import { request } from "node:http";
import { after, before, describe, it } from "node:test";
import { inspect } from "node:util";
import type { RunningHttpServer } from "../../lib/http-server.ts";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import { basicAuthorization } from "../src/auth/basic-header.ts";
import { createTestHub, type TestHub } from "./support/test-context.ts";

const USER = "operator";
const PASSWORD = "correct horse battery staple";
/** Two clients on loopback (127.0.0.0/8 is all local): the flooding one and the legitimate user. */
const FLOODER = "127.0.0.2";
const USER_CLIENT = "127.0.0.3";

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: string;
}

/** One GET on a fresh connection from `localAddress`. */
function get(port: number, localAddress: string, authorization?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/api/matter/bridges",
        localAddress,
        agent: false,
        headers: authorization ? { Authorization: authorization } : {},
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          body += chunk;
        });
        res.on("end", () => {
          const retryAfter = res.headers["retry-after"];
          resolve({ status: res.statusCode ?? 0, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, body });
        });
      },
    );
    req.on("error", reject);
    req.end();
  });
}

const wrong = (i: number) => basicAuthorization(USER, `wrong password ${i}`);
const right = basicAuthorization(USER, PASSWORD);

/**
 * The real hub with HUB_AUTH_* credentials (or settings-page ones) listening on loopback: floods of wrong
 * passwords from one client address, the right password from another.
 */
for (const source of ["env", "settings"] as const) {
  describe(`login throttling with ${source} credentials (real sockets, two client addresses)`, { timeout: 120_000 }, () => {
    let hub: TestHub;
    let server: RunningHttpServer;

    before(async () => {
      assertNetworkIsolated();
      hub = await createTestHub(source === "env" ? { env: { HUB_AUTH_USERNAME: USER, HUB_AUTH_PASSWORD: PASSWORD } } : {});
      if (source === "settings") await hub.ctx.auth.setCredentials(USER, PASSWORD);
      server = await hub.hub.listen();
    });
    after(async () => {
      await hub?.stop();
    });

    if (source === "env") {
      it("keeps the environment password out of the configuration once hashed", () => {
        const config = hub.ctx.config;
        for (const text of [JSON.stringify(config), inspect(config, { depth: 5, showHidden: true })]) {
          assert.ok(!text.includes(PASSWORD), text);
        }
      });
    }

    it("answers a right password from another client with 200 while one client floods wrong ones", async () => {
      // 60 distinct wrong passwords at once from one address, and during them a first request (no cached
      // verdict) with the right password from another address.
      const flood = Array.from({ length: 60 }, (_, i) => get(server.port, FLOODER, wrong(i)));
      const legit = await get(server.port, USER_CLIENT, right);
      assert.equal(legit.status, 200, legit.body);
      const answers = await Promise.all(flood);
      assert.ok(
        answers.every((a) => a.status === 401 || a.status === 429),
        answers.map((a) => a.status).join(),
      );
      const refused = answers.filter((a) => a.status === 429);
      assert.ok(refused.length >= 50, `only ${refused.length} of the flood were refused unchecked`);
      for (const answer of refused) {
        assert.match(answer.retryAfter ?? "", /^[1-9]\d*$/);
        assert.deepEqual(Object.keys(JSON.parse(answer.body)), ["error"]);
      }
      assert.ok(answers.filter((a) => a.status === 401).length <= 5, "at most the free failures were hashed");
      // The flooder is in backoff now, the user is not, and a header verified before skips the backoff.
      assert.equal((await get(server.port, FLOODER, wrong(1000))).status, 429);
      assert.equal((await get(server.port, USER_CLIENT, right)).status, 200);
      assert.equal((await get(server.port, FLOODER, right)).status, 200, "already verified: no KDF work, no guess");
    });

    it("lets 5 wrong passwords through as 401, then answers 429 with Retry-After until the backoff ends", async () => {
      // A third address, fresh.
      const client = "127.0.0.4";
      for (let i = 0; i < 5; i++) {
        const answer = await get(server.port, client, wrong(2000 + i));
        assert.equal(answer.status, 401, `attempt ${i + 1}`);
      }
      const braked = await get(server.port, client, wrong(2100));
      assert.equal(braked.status, 429);
      assert.equal(braked.retryAfter, "1");
      assert.match(JSON.parse(braked.body).error, /^Too many wrong credentials from this client; try again in 1 s$/);
      // A header already found wrong is answered 401 from memory: no KDF work, and no new guess counted.
      assert.equal((await get(server.port, client, wrong(2000))).status, 401);
      // No header at all is no guess either: the login prompt.
      assert.equal((await get(server.port, client)).status, 401);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      // After the backoff: the right password gets in (a header never verified before: "basic" in lower case)…
      assert.equal((await get(server.port, client, right.replace("Basic", "basic"))).status, 200);
      // …but does not wipe the count (a shared address would give an attacker fresh guesses): the next wrong one
      // doubles the backoff.
      assert.equal((await get(server.port, client, wrong(2200))).status, 401);
      const doubled = await get(server.port, client, wrong(2201));
      assert.equal(doubled.status, 429);
      assert.equal(doubled.retryAfter, "2");
    });
  });
}
