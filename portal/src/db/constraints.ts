/**
 * The column named by a SQLite UNIQUE violation (`UNIQUE constraint failed: servers.slug` → `slug`), else
 * undefined. For a key over several columns (`bots.server_id, bots.localpart`) it is the last one, the one that
 * tells the keys apart. Lets services turn a lost race on a unique field into a 409 instead of a 500.
 */
export function uniqueViolation(error: unknown): string | undefined {
  const err = error as { code?: string; message?: string };
  if (err?.code !== "SQLITE_CONSTRAINT_UNIQUE") return undefined;
  const columns = /UNIQUE constraint failed: (.+)$/.exec(err.message ?? "")?.[1]?.split(",");
  return columns?.at(-1)?.trim().split(".").at(-1);
}
