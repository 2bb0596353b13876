import { RateLimitRepository } from "../../src/rate-limit/rate-limit.repository.ts";
import { openTestDatabase } from "./test-database.ts";

/** A fresh migrated database (SQLite in memory, or a PostgreSQL schema) and the limits' store over it, for the limiters' unit tests. */
export async function testStore(): Promise<{ store: RateLimitRepository; close: () => Promise<void> }> {
  const db = await openTestDatabase();
  return { store: new RateLimitRepository(db), close: () => db.destroy() };
}
