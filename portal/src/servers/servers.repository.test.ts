import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Kysely } from "kysely";
import { openTestDatabase } from "../../test/support/test-database.ts";
import type { Database } from "../db/schema.ts";
import { GENERATIONS, WriteGeneration } from "../db/write-generation.ts";
import { serverRow } from "./server-row.fixture.ts";
import { ServersRepository } from "./servers.repository.ts";

const NOW = "2026-11-24T10:00:00.000Z";
const row = (id: string) => serverRow(id, NOW);

describe("servers repository: rows kept in memory", () => {
  let db: Kysely<Database>;
  let writes: WriteGeneration;
  let repository: ServersRepository;
  before(async () => {
    db = await openTestDatabase();
    writes = new WriteGeneration(db, GENERATIONS.servers);
    repository = new ServersRepository(db, writes);
    await repository.insertWithDefault(row("a"));
    await repository.insertWithDefault(row("b"));
  });
  after(() => db.destroy());

  it("answers from memory with copies, and sees every write made through a repository sharing the count", async () => {
    const first = await repository.find("a");
    assert.equal(first?.name, "a");
    if (first) first.name = "changed by a caller";
    assert.equal((await repository.find("a"))?.name, "a", "callers get copies");

    await db.updateTable("servers").set({ name: "behind its back" }).where("id", "=", "a").execute();
    assert.equal((await repository.find("a"))?.name, "a", "kept: nothing in the portal writes around the repositories");
    // Another repository's write to the table (branding unlinking servers) goes through the shared count.
    await writes.around((trx) => trx.updateTable("servers").set({ name: "unlinked" }).where("id", "=", "a").execute());
    assert.equal((await repository.find("a"))?.name, "unlinked");
    // Another instance on the same database (its own repository and count object) writes: seen at once.
    await new ServersRepository(db).update("a", { name: "by another instance" });
    assert.equal((await repository.find("a"))?.name, "by another instance");

    assert.equal((await repository.update("a", { name: "renamed" }))?.name, "renamed");
    await repository.setDefault("b", NOW);
    assert.deepEqual(
      [(await repository.find("a"))?.is_default, (await repository.find("b"))?.is_default],
      [0, 1],
      "the default moved",
    );
    await repository.setDefault("a", NOW);
    assert.equal(await repository.deleteIfRemovable("b"), true);
    assert.equal(await repository.find("b"), undefined, "deleted");
  });

  it("a find racing an update ends with the updated row (the race itself: write-generation.test.ts)", async () => {
    await writes.around(async () => {}); // nothing kept from the test before
    const read = repository.find("a");
    const write = repository.update("a", { name: "during" });
    await read;
    await write;
    assert.equal((await repository.find("a"))?.name, "during");
  });
});
