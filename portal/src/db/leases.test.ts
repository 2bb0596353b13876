import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Kysely } from "kysely";
import { openTestDatabase } from "../../test/support/test-database.ts";
import { Leases } from "./leases.ts";
import type { Database } from "./schema.ts";

describe("leases", () => {
  let db: Kysely<Database>;
  let clock = 1_000_000;
  const instance = (holder: string) => new Leases(db, () => clock, holder);
  before(async () => {
    db = await openTestDatabase();
  });
  after(() => db.destroy());

  it("gives a name to exactly one of many instances asking at once", async () => {
    const instances = Array.from({ length: 10 }, (_, i) => instance(`holder-${i}`));
    const won = await Promise.all(instances.map((leases) => leases.acquire("one", 10_000)));
    assert.equal(won.filter(Boolean).length, 1);
  });

  it("is taken over once it expired, and then no longer renews or releases for its old holder", async () => {
    const a = instance("a");
    const b = instance("b");
    assert.equal(await a.acquire("two", 5_000), true);
    assert.equal(await b.acquire("two", 5_000), false, "held");
    clock += 4_000;
    assert.equal(await a.renew("two", 5_000), true, "renewed before it expired");
    clock += 4_000;
    assert.equal(await b.acquire("two", 5_000), false, "the renewal counts");
    clock += 1_000; // a stopped renewing: its claim is over
    assert.equal(await b.acquire("two", 5_000), true);
    assert.equal(await a.renew("two", 5_000), false);
    await a.release("two");
    assert.equal(await instance("c").acquire("two", 5_000), false, "a's release did not free b's claim");
    await b.release("two");
    assert.equal(await instance("c").acquire("two", 5_000), true);
  });
});
