import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Kysely } from "kysely";
import { openTestDatabase } from "../../test/support/test-database.ts";
import type { Database } from "../db/schema.ts";
import { AuditRepository } from "./audit.repository.ts";
import { AuditService } from "./audit.service.ts";
import { AuditNamesRepository } from "./audit-names.repository.ts";
import { LoginAuditRepository } from "./login-audit.repository.ts";
import { LOGIN_AUDIT_BUDGET, LoginAudit } from "./login-audit.ts";

describe("failed-login audit budget across instances", () => {
  let db: Kysely<Database>;
  let clock = 1_700_000_000_000;
  const instance = () =>
    new LoginAudit(
      new AuditService(new AuditRepository(db), new AuditNamesRepository(db), () => clock),
      new LoginAuditRepository(db),
      (text) => `fp-${text}`,
      () => clock,
    );
  const count = async (action: string) =>
    Number(
      (
        await db
          .selectFrom("audit_log")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("action", "=", action)
          .executeTakeFirstOrThrow()
      ).n,
    );
  before(async () => {
    db = await openTestDatabase();
  });
  after(() => db.destroy());

  it("gives two instances one budget and one summary per window", async () => {
    const instances = [instance(), instance()];
    const flood = 50;
    await Promise.all(
      Array.from({ length: flood }, (_, i) =>
        instances[i % 2]?.failed({
          ip: `192.0.2.${i % 5}`,
          reason: i % 10 === 0 ? "rate_limited" : "wrong_password",
          typed: `user${i % 7}@x`,
          account: async () => undefined,
        }),
      ),
    );
    assert.equal(await count("auth.login.failed"), LOGIN_AUDIT_BUDGET.entries, "one budget for both");
    clock += LOGIN_AUDIT_BUDGET.windowMs;
    // Both notice the end of the window (timers, or the next failure): one summary is written.
    await Promise.all(instances.map((audit) => audit.flush()));
    await instances[0]?.failed({ ip: "198.51.100.1", reason: "wrong_password", typed: "late@x", account: async () => undefined });
    assert.equal(await count("auth.login.failed.summary"), 1);
    const summary = await db
      .selectFrom("audit_log")
      .select(["detail", "ip"])
      .where("action", "=", "auth.login.failed.summary")
      .executeTakeFirstOrThrow();
    const detail = JSON.parse(summary.detail ?? "{}");
    assert.equal(detail.attempts, flood - LOGIN_AUDIT_BUDGET.entries);
    assert.ok(detail.accounts >= 1 && detail.accounts <= 7);
    assert.ok(detail.addresses >= 1 && detail.addresses <= 5);
    assert.equal(summary.ip, "(many)");
    assert.equal(await count("auth.login.failed"), LOGIN_AUDIT_BUDGET.entries + 1, "the next window's first failure");
    await Promise.all(instances.map((audit) => audit.stop()));
  });
});
