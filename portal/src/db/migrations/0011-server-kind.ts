import { type Kysely, sql } from "kysely";
import { dialectOf } from "../dialect.ts";
import type { Migration } from "../migrate.ts";

/**
 * Managed servers get a kind (issue 23): `synapse`, every server so far (its tokens through Synapse's admin API), or
 * `mas`, a homeserver that delegates accounts to the Matrix Authentication Service, whose tokens the portal manages
 * through MAS's admin API with an OAuth 2.0 client. `mas_client_secret_enc` is sealed like the admin token, bound to
 * the row. A MAS server needs no Synapse admin token: its `admin_token_enc` is then the empty string (the column
 * stays NOT NULL: SQLite cannot relax it without rebuilding a table other tables point at).
 */
export const serverKind: Migration = {
  name: "0011-server-kind",
  // biome-ignore lint/suspicious/noExplicitAny: migrations work on the schema as it was
  async up(db: Kysely<any>) {
    // Byte-wise text on PostgreSQL, like every text column there (dialect.ts, textType).
    const text = sql.raw(dialectOf(db) === "postgres" ? 'TEXT COLLATE "C"' : "TEXT");
    await sql`ALTER TABLE servers ADD COLUMN kind ${text} NOT NULL DEFAULT 'synapse' CHECK (kind IN ('synapse', 'mas'))`.execute(
      db,
    );
    await sql`ALTER TABLE servers ADD COLUMN mas_url ${text}`.execute(db);
    await sql`ALTER TABLE servers ADD COLUMN mas_public_url ${text}`.execute(db);
    await sql`ALTER TABLE servers ADD COLUMN mas_client_id ${text}`.execute(db);
    await sql`ALTER TABLE servers ADD COLUMN mas_client_secret_enc ${text}`.execute(db);
  },
};
