import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Kysely } from "kysely";
import { openTestDatabase } from "../../test/support/test-database.ts";
import type { Database } from "../db/schema.ts";
import { AuthRepository } from "./auth.repository.ts";

const NOW = "2026-11-24T10:00:00.000Z";
const user = (id: string) => ({
  id,
  email: `${id}@example.test`,
  name: id,
  role: "global_admin",
  password_hash: "x",
  created_at: NOW,
  updated_at: NOW,
});
const session = (idHash: string, userId: string, expiresAt = "2026-11-24T22:00:00.000Z") => ({
  id_hash: idHash,
  user_id: userId,
  created_at: NOW,
  expires_at: expiresAt,
  ip: "127.0.0.1",
});

describe("auth repository: live sessions kept in memory", () => {
  let db: Kysely<Database>;
  let repository: AuthRepository;
  before(async () => {
    db = await openTestDatabase();
    repository = new AuthRepository(db);
    await repository.insertUser(user("u1"));
    await repository.insertUser(user("u2"));
  });
  after(() => db.destroy());

  it("answers repeated lookups from memory, and sees a change made behind its back only after a write through it", async () => {
    await repository.insertSession(session("s1", "u1"));
    assert.equal((await repository.findLiveSession("s1", NOW))?.user.id, "u1");
    // Deleted behind the repository's back (nothing in the portal does this): the kept session still answers...
    await db.deleteFrom("sessions").where("id_hash", "=", "s1").execute();
    for (let i = 0; i < 3; i++)
      assert.equal((await repository.findLiveSession("s1", NOW))?.user.id, "u1", "kept, not read again");
    // ...until any write through the repository, which empties the cache.
    await repository.updateUser("u2", { name: "renamed" });
    assert.equal(await repository.findLiveSession("s1", NOW), undefined);
  });

  it("ends a session at once on logout, on the end of a user's sessions, and on its expiry", async () => {
    await repository.insertSession(session("s2", "u1"));
    await repository.insertSession(session("s3", "u2"));
    await repository.insertSession(session("s4", "u2", "2026-11-24T10:00:01.000Z"));
    for (const id of ["s2", "s3", "s4"]) assert.ok(await repository.findLiveSession(id, NOW), id);
    await repository.deleteSession("s2");
    assert.equal(await repository.findLiveSession("s2", NOW), undefined, "logout");
    assert.ok(await repository.findLiveSession("s4", NOW));
    assert.equal(await repository.findLiveSession("s4", "2026-11-24T10:00:01.000Z"), undefined, "expired while kept");
    await repository.deleteUserSessions("u2");
    assert.equal(await repository.findLiveSession("s3", NOW), undefined, "password change ends the user's sessions");
  });

  it("never keeps what a lookup read while a write was under way", async () => {
    await repository.insertSession(session("s5", "u1"));
    const lookup = repository.findLiveSession("s5", NOW); // reads before the delete below runs
    const logout = repository.deleteSession("s5");
    await lookup; // may or may not see the session, depending on which reached the database first
    await logout;
    assert.equal(await repository.findLiveSession("s5", NOW), undefined, "but it was not kept");
  });

  it("ends a session at once when another instance on the database revokes it", async () => {
    const other = new AuthRepository(db); // a second portal process: its own memory, the same database
    await repository.insertSession(session("s7", "u1"));
    assert.ok(await repository.findLiveSession("s7", NOW), "kept by this instance");
    await other.deleteSession("s7");
    assert.equal(await repository.findLiveSession("s7", NOW), undefined);
  });

  it("reflects a change of the user on the next lookup", async () => {
    await repository.insertSession(session("s6", "u1"));
    assert.equal((await repository.findLiveSession("s6", NOW))?.user.name, "u1");
    await repository.updateUser("u1", { name: "Ursula" });
    assert.equal((await repository.findLiveSession("s6", NOW))?.user.name, "Ursula");
  });
});
