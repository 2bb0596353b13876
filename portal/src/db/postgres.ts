import {
  type CompiledQuery,
  Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  PostgresDialect,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from "kysely";
import pg from "pg";
import type { Logger } from "../../../lib/logger.ts";
import type { Database } from "./schema.ts";

/** PostgreSQL type ids whose text the portal reads as JavaScript numbers. */
const INT8 = 20;
const NUMERIC = 1700;

/**
 * pg returns `bigint` (count(*), sum of integers) and `numeric` as strings so as not to lose precision; the portal's
 * counts and sums stay far below 2^53 and its code expects numbers, as SQLite gives. Set per pool, not on pg's
 * global type table (no module-wide state).
 */
const types = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === INT8 || oid === NUMERIC) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

/**
 * Hides the `rowid` column that the migrations add on PostgreSQL (dialect.ts, withRowid) from result rows, as SQLite
 * hides its own from `SELECT *`: rows read here look the same on both databases.
 */
class HiddenRowid implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const rows = args.result.rows;
    if (rows.length === 0 || !("rowid" in (rows[0] as object))) return args.result;
    return { ...args.result, rows: rows.map(({ rowid: _, ...rest }) => rest) };
  }
}

export interface PostgresOptions {
  /** Connections in the pool (default 10). */
  max?: number;
  /** Where a connection that failed while idle is reported (the pool replaces it). */
  log?: Logger;
  /** Sees every statement run (tests check which queries a repository sends). */
  onQuery?: (query: CompiledQuery) => void;
}

/**
 * Opens a pool of connections to PostgreSQL for the portal. Nothing is connected until the first query (the
 * migrations at start), so a wrong URL shows there. `url` is never logged: it may hold the password.
 */
export function openPostgres(url: string, options: PostgresOptions = {}): Kysely<Database> {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, types, application_name: "matrix-portal" });
  // An idle connection dropped by the server (restart, failover) must not crash the process: the pool makes a new one.
  pool.on("error", (error) => options.log?.warn({ err: error.message }, "a PostgreSQL connection was lost"));
  const onQuery = options.onQuery;
  return new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    plugins: [new HiddenRowid()],
    ...(onQuery && { log: (event) => (event.level === "query" ? onQuery(event.query) : undefined) }),
  });
}
