import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { matchLanguage, pickLanguage, plurals } from "./i18n.ts";

describe("language detection", () => {
  it("matches browser tags to the shipped languages", () => {
    assert.equal(matchLanguage("de-AT"), "de");
    assert.equal(matchLanguage("pt"), "pt-BR");
    assert.equal(matchLanguage("pt_br"), "pt-BR");
    assert.equal(matchLanguage("pt-PT"), "pt-BR");
    assert.equal(matchLanguage("en-GB"), "en");
    assert.equal(matchLanguage("ja"), null);
    assert.equal(matchLanguage(""), null);
  });

  it("takes the first supported language in the browser's order", () => {
    assert.equal(pickLanguage(["ja-JP", "pl-PL", "de"]), "pl");
    assert.equal(pickLanguage([null, "nl-BE", "en"]), "nl");
    assert.equal(pickLanguage(["ja"]), null);
  });
});

describe("plurals", () => {
  it("picks Polish's one, few and many forms", () => {
    const p = plurals("pl");
    const forms = (n: number) => p(n, { one: "urządzenie", few: "urządzenia", many: "urządzeń", other: "urządzenia" });
    assert.deepEqual([1, 2, 5, 22, 25, 112].map(forms), [
      "urządzenie",
      "urządzenia",
      "urządzeń",
      "urządzenia",
      "urządzeń",
      "urządzeń",
    ]);
  });
});
