/**
 * The column named by a SQLite UNIQUE violation (`UNIQUE constraint failed: servers.slug` → `slug`), else
 * undefined. Lets services turn a lost race on a unique field into a 409 instead of a 500.
 */
export function uniqueViolation(error: unknown): string | undefined {
  const err = error as { code?: string; message?: string };
  if (err?.code !== "SQLITE_CONSTRAINT_UNIQUE") return undefined;
  return /UNIQUE constraint failed: \w+\.(\w+)/.exec(err.message ?? "")?.[1];
}
