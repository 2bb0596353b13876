import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compileEntityRegex, compileGlob, MAX_REGEX_LENGTH } from "./entity-regex.ts";

const matches = (source: string, input: string) => {
  const { pattern, problem } = compileEntityRegex(source);
  assert.equal(problem, undefined, source);
  return pattern!.test(input);
};
const problemOf = (source: string) => compileEntityRegex(source).problem ?? "";

describe("entity regular expressions (RE2)", () => {
  it("matches as RegExp.prototype.test did: unanchored unless anchored, case-sensitive", () => {
    assert.equal(matches("kitchen", "light.kitchen_ceiling"), true);
    assert.equal(matches("^kitchen", "light.kitchen_ceiling"), false);
    assert.equal(matches("^light\\.(desk|kitchen)$", "light.desk"), true);
    assert.equal(matches("^light\\.(desk|kitchen)$", "light.desk_2"), false);
    assert.equal(matches("Kitchen", "light.kitchen"), false);
    assert.equal(matches("(?i)Kitchen", "light.kitchen"), true);
  });

  it("takes the JavaScript spellings people wrote before: named groups, \\u escapes, [^], classes with brackets", () => {
    assert.equal(matches("^light\\.(?<room>desk|kitchen)$", "light.kitchen"), true);
    assert.equal(matches("^light\\u002ekitchen$", "light.kitchen"), true);
    assert.equal(matches("^sensor\\.[^]+$", "sensor.x"), true);
    // `(?=` inside a class or escaped is no lookahead.
    assert.equal(matches("[(?=]", "a(b"), true);
    assert.equal(matches("\\(?=", "a="), true);
    assert.equal(matches("\\\\1", "a\\1"), true);
  });

  it("refuses backreferences, lookarounds, over-long patterns and syntax errors, each with its reason", () => {
    assert.match(problemOf("^(light)\\.\\1$"), /backreference .* linear-time .*RE2/);
    assert.match(problemOf("^(?<d>\\w+)\\.\\k<d>$"), /backreference/);
    assert.match(problemOf("^light\\.(?!test)"), /lookahead/);
    assert.match(problemOf("^light\\.(?=k)"), /lookahead/);
    assert.match(problemOf("(?<!x)light"), /lookbehind/);
    assert.match(problemOf("(?<=x)light"), /lookbehind/);
    assert.match(problemOf("a".repeat(MAX_REGEX_LENGTH + 1)), /longer than 256 characters/);
    assert.equal(problemOf("a".repeat(MAX_REGEX_LENGTH)), "");
    assert.match(problemOf("(light"), /valid regular expression \(missing closing \)/);
    assert.match(problemOf("a{1001}"), /invalid repeat count/);
    assert.match(problemOf("a++"), /valid regular expression/);
  });

  it("runs the issue's pattern over a hostile entity id at once (a backtracking engine takes minutes)", {
    timeout: 30_000,
  }, () => {
    // RegExp needs about 4^(n/2) steps here: 34 letters took over four minutes in the issue; 200 would take ages.
    for (const length of [34, 200]) {
      assert.equal(matches("^[a-z]+\\.([a-z_]+)+!$", `sensor.${"a".repeat(length)}`), false);
    }
    assert.equal(matches("(.*a){20}z", "a".repeat(240)), false);
  });
});

describe("globs", () => {
  it("match the whole id, case-insensitively, with only * and ? special", () => {
    assert.ok(compileGlob("light.*").test("light.Kitchen"));
    assert.ok(!compileGlob("light.*").test("xlight.kitchen"));
    assert.ok(compileGlob("sensor.?_temp").test("sensor.a_temp"));
    assert.ok(!compileGlob("sensor.a+b").test("sensor.aab"));
    assert.ok(compileGlob("sensor.(x)[y]{2}|$^").test("sensor.(x)[y]{2}|$^"));
  });

  it("stay linear with many stars (a backtracking glob is polynomial with the number of stars)", { timeout: 30_000 }, () => {
    assert.equal(compileGlob(`${"*a".repeat(40)}*b`).test(`sensor.${"a".repeat(240)}`), false);
  });
});
