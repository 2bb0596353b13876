import { openDatabase } from "../db/database.ts";
import { migrate } from "../db/migrate.ts";
import { MIGRATIONS } from "../db/migrations/index.ts";
import { RateLimitRepository } from "./rate-limit.repository.ts";

/** A fresh migrated in-memory database and the limits' store over it, for the limiters' unit tests. */
export async function testStore(): Promise<{ store: RateLimitRepository; close: () => Promise<void> }> {
  const db = openDatabase(":memory:");
  await migrate(db, MIGRATIONS);
  return { store: new RateLimitRepository(db), close: () => db.destroy() };
}
