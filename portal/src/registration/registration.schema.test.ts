import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HttpError } from "../../../lib/http-error.ts";
import { NOT_JSON, parseRegistration } from "./registration.schema.ts";

const valid = { username: "alice", password: "long enough", confirmPassword: "long enough", token: "welcome" };

function refusal(body: unknown): { status: number; message: string; code: string } {
  try {
    parseRegistration(body);
  } catch (error) {
    assert.ok(error instanceof HttpError);
    return { status: error.status, message: error.message, code: error.code };
  }
  assert.fail("accepted");
}

describe("registration pre-validation", () => {
  it("accepts a valid body, trims and lower-cases the username", () => {
    const input = parseRegistration({ ...valid, username: "  Alice.B ", displayName: " Alice ", extra: true });
    assert.equal(input.username, "alice.b");
    assert.equal(input.displayName, "Alice");
  });

  it("refuses each problem with a Matrix code and a readable message", () => {
    const cases: [unknown, string, RegExp][] = [
      [NOT_JSON, "M_NOT_JSON", /not JSON/],
      [[1], "M_BAD_JSON", /JSON object/],
      [{ ...valid, username: undefined }, "M_MISSING_PARAM", /username is required/],
      [{ ...valid, username: "" }, "M_INVALID_USERNAME", /Choose a username/],
      [{ ...valid, username: "a b" }, "M_INVALID_USERNAME", /may only contain/],
      [{ ...valid, username: "x".repeat(256) }, "M_INVALID_USERNAME", /too long/],
      [{ ...valid, username: "_bridge" }, "M_INVALID_USERNAME", /begin with _/],
      [{ ...valid, username: "12345" }, "M_INVALID_USERNAME", /digits only/],
      [{ ...valid, password: "short", confirmPassword: "short" }, "M_PASSWORD_TOO_SHORT", /at least 8/],
      [{ ...valid, password: "p".repeat(513), confirmPassword: "p".repeat(513) }, "M_INVALID_PARAM", /too long/],
      [{ ...valid, confirmPassword: "different!" }, "M_INVALID_PARAM", /do not match/],
      [{ ...valid, token: "  " }, "M_MISSING_PARAM", /token is required/],
      [{ ...valid, token: undefined }, "M_MISSING_PARAM", /token is required/],
      [{ ...valid, displayName: "d".repeat(256) }, "M_INVALID_PARAM", /display name is too long/],
      [{ ...valid, username: 42 }, "M_INVALID_USERNAME", /must be a string/],
    ];
    for (const [body, code, message] of cases) {
      const result = refusal(body);
      assert.equal(result.status, 400);
      assert.equal(result.code, code, JSON.stringify(body));
      assert.match(result.message, message);
    }
  });

  it("accepts the limits exactly", () => {
    const name = "u".repeat(255);
    assert.equal(parseRegistration({ ...valid, username: name }).username, name);
    assert.equal(parseRegistration({ ...valid, password: "12345678", confirmPassword: "12345678" }).password, "12345678");
    assert.equal(parseRegistration({ ...valid, displayName: "d".repeat(255) }).displayName?.length, 255);
  });
});
