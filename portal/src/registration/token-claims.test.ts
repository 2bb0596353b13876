import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Kysely } from "kysely";
import { memoryLogger } from "../../../lib/testing/fixtures.ts";
import { openTestDatabase } from "../../test/support/test-database.ts";
import { Leases } from "../db/leases.ts";
import type { Database } from "../db/schema.ts";
import { CLAIM_TIMINGS, leaseName, TokenClaims } from "./token-claims.ts";

describe("token claims across instances", () => {
  let db: Kysely<Database>;
  let clock = 5_000_000;
  const { log } = memoryLogger("debug");
  const claims = (timings = CLAIM_TIMINGS) => new TokenClaims(new Leases(db, () => clock), log, timings);
  before(async () => {
    db = await openTestDatabase();
  });
  after(() => db.destroy());

  it("runs the sign-ups of one token one at a time over three instances, and other tokens beside them", async () => {
    const instances = [claims(), claims(), claims()];
    let running = 0;
    let most = 0;
    const order: string[] = [];
    const task = (name: string) => async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push(name);
      running -= 1;
      return name;
    };
    const results = await Promise.all(
      Array.from({ length: 9 }, (_, i) => instances[i % 3]?.run("server", "one-use", task(`signup-${i}`))),
    );
    assert.equal(most, 1, "never two at once");
    assert.equal(order.length, 9);
    assert.deepEqual(new Set(results), new Set(order));
    let other = false;
    await instances[0]?.run("server", "one-use", async () => {
      await instances[1]?.run("server", "another-token", async () => {
        other = true;
      });
    });
    assert.ok(other, "another token is not held up");
  });

  it("takes over a token whose holder died once its claim expired", async () => {
    const timings = { ...CLAIM_TIMINGS, ttlMs: 1_000, firstPollMs: 5, maxPollMs: 5 };
    // The dead holder: its lease is in the database, nobody renews it.
    assert.equal(await new Leases(db, () => clock, "dead").acquire(leaseName("server", "orphaned"), 1_000), true);
    const survivor = claims(timings);
    let ran = false;
    const waiting = survivor.run("server", "orphaned", async () => {
      ran = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(ran, false, "waits while the claim is live");
    clock += 1_000;
    await waiting;
    assert.equal(ran, true);
  });
});
