import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { memoryLogger } from "../../lib/testing/fixtures.ts";
import { portalLogger } from "./logging.ts";

describe("portal logger redaction", () => {
  it("hides the portal's secret fields and keeps the shared list in force", () => {
    const { log, lines } = memoryLogger("debug");
    const portal = portalLogger(log).child({ component: "x" });
    portal.info(
      {
        password: "p-shared",
        adminToken: "t-shared",
        confirmPassword: "p-confirm",
        body: { passwordHash: "h-nested", admin_token_enc: "v1:enc" },
        deep: { row: { sid: "session-id" } },
        visible: "kept",
      },
      "event",
    );
    const text = lines().join("\n");
    for (const secret of ["p-shared", "t-shared", "p-confirm", "h-nested", "v1:enc", "session-id"]) {
      assert.equal(text.includes(secret), false, secret);
    }
    assert.match(text, /"visible":"kept"/);
    assert.match(text, /\[redacted\]/);
  });
});
