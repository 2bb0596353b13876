/**
 * The column named by a UNIQUE violation, else undefined: SQLite's `UNIQUE constraint failed: servers.slug` and
 * PostgreSQL's `Key (slug)=(…) already exists.` (code 23505) both give `slug`. For a key over several columns
 * (`bots.server_id, bots.localpart`) it is the last one, the one that tells the keys apart. Lets services turn a lost
 * race on a unique field into a 409 instead of a 500.
 */
export function uniqueViolation(error: unknown): string | undefined {
  const err = error as { code?: string; message?: string; detail?: string };
  let columns: string[] | undefined;
  if (err?.code === "SQLITE_CONSTRAINT_UNIQUE")
    columns = /UNIQUE constraint failed: (.+)$/.exec(err.message ?? "")?.[1]?.split(",");
  else if (err?.code === "23505") columns = /^Key \(([^)]+)\)=/.exec(err.detail ?? "")?.[1]?.split(",");
  return columns?.at(-1)?.trim().split(".").at(-1)?.replace(/"/g, "");
}
