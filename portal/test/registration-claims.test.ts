import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Kysely } from "kysely";
import { until } from "../../lib/testing/polling.ts";
import type { HomeserverSimulator } from "../../simulators/homeserver/index.ts";
import { openConfiguredDatabase } from "../src/db/database.ts";
import { Leases } from "../src/db/leases.ts";
import type { Database } from "../src/db/schema.ts";
import { leaseName } from "../src/registration/token-claims.ts";
import type { PortalClient } from "./support/portal-client.ts";
import { nextIp, startPortalWithHomeserver, stopPortalWithHomeserver, type TestPortal } from "./support/portal-harness.ts";

const PASSWORD = "correct horse battery";
const signUp = (username: string, token: string) => ({ username, password: PASSWORD, confirmPassword: PASSWORD, token });
const REGISTER = "/_matrix/client/v3/register";
const LOOKUP = "/_synapse/admin/v1/registration_tokens/";

/**
 * Issue 24: which sign-ups wait for a token's claim (token-claims.ts). Another instance on the database is played by
 * a second connection to the portal's database, holding a token's lease (as a sign-up there would) for a test.
 */
describe("sign-ups and the token claim held by another instance", () => {
  let portal: TestPortal;
  let hs: HomeserverSimulator;
  let admin: PortalClient;
  let serverId: string;
  let otherDb: Kysely<Database>;
  let otherInstance: Leases;
  const HOLD_MS = 10 * 60_000;

  before(async () => {
    ({ portal, hs, admin, serverId } = await startPortalWithHomeserver({ homeserver: { serverName: "claims.test" } }));
    otherDb = openConfiguredDatabase(portal.running.ctx.config.database);
    otherInstance = new Leases(otherDb, () => Date.now() + portal.clockOffset, "other-instance");
  });
  after(async () => {
    await otherDb?.destroy();
    await stopPortalWithHomeserver(portal, hs);
  });

  const createToken = async (body: Record<string, unknown>) => {
    const reply = await admin.post(`/api/admin/tokens?serverId=${serverId}`, body);
    assert.equal(reply.status, 201, reply.text);
  };
  const register = (username: string, token: string) =>
    portal.client({ ip: nextIp() }).post("/api/register", signUp(username, token));
  const accounts = (prefix: string) =>
    hs
      .users()
      .map((user) => user.userId)
      .filter((id) => id.startsWith(`@${prefix}`))
      .sort();

  it("signs up with an unlimited token while another instance holds its claim", async () => {
    await createToken({ token: "open-door", uses_allowed: null });
    const lease = leaseName(serverId, "open-door");
    assert.equal(await otherInstance.acquire(lease, HOLD_MS), true);
    try {
      const replies = await Promise.all([0, 1, 2].map((i) => register(`guest${i}`, "open-door")));
      assert.deepEqual(
        replies.map((reply) => reply.status),
        [200, 200, 200],
        JSON.stringify(replies.map((reply) => reply.body)),
      );
      assert.deepEqual(accounts("guest"), ["@guest0:claims.test", "@guest1:claims.test", "@guest2:claims.test"]);
      assert.equal(hs.tokens().find((token) => token.token === "open-door")?.completed, 3);
      assert.equal(await otherInstance.renew(lease, HOLD_MS), true, "the other instance still holds the claim");
    } finally {
      await otherInstance.release(lease);
    }
  });

  it("keeps a one-use token waiting for the claim, then gives exactly one account", async () => {
    await createToken({ token: "one-seat", uses_allowed: 1 });
    const lease = leaseName(serverId, "one-seat");
    assert.equal(await otherInstance.acquire(lease, HOLD_MS), true);
    const lookups = () => hs.requests().filter((r) => r.method === "GET" && r.path === `${LOOKUP}one-seat`).length;
    const lookupsBefore = lookups();
    const registersBefore = hs.requests().filter((r) => r.path === REGISTER).length;
    let replies: ReturnType<typeof register>[] = [];
    try {
      replies = [0, 1, 2, 3].map((i) => register(`seat${i}`, "one-seat"));
      await until("every sign-up inspected the token", () => lookups() - lookupsBefore >= 4);
      assert.equal(hs.requests().filter((r) => r.path === REGISTER).length, registersBefore, "none reached /register");
      assert.deepEqual(accounts("seat"), []);
    } finally {
      await otherInstance.release(lease);
    }
    const settled = await Promise.all(replies);
    const winners = settled.filter((reply) => reply.status === 200);
    assert.equal(winners.length, 1, JSON.stringify(settled.map((reply) => reply.body)));
    for (const loser of settled.filter((reply) => reply.status !== 200)) {
      assert.deepEqual([loser.status, loser.body.errorCode], [403, "M_UNAUTHORIZED"]);
    }
    assert.deepEqual(accounts("seat"), [winners[0]?.body.userId]);
  });
});
