import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compareMessages, LANGUAGES, type Language, mergeMessages } from "../../../common/i18n.ts";
import { UI } from "../../../common/strings.ts";
import { HUB_LOCALES } from "../i18n.ts";
import { S } from "../strings.ts";

// Every hub translation has every key of the English table, no key English lacks, and functions that take the same
// parameters: a missing key fails here (the browser would silently show English).

const languages = Object.keys(LANGUAGES).filter((language) => language !== "en") as Exclude<Language, "en">[];
const english = structuredCloneStrings(S);

/** A deep copy that keeps functions (structuredClone refuses them), so merging into it leaves `S` alone. */
function structuredCloneStrings<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(structuredCloneStrings) as T;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, structuredCloneStrings(v)])) as T;
}

describe("hub UI translations", () => {
  it("ships a translation for every language the picker offers", () => {
    assert.deepEqual(Object.keys(HUB_LOCALES).sort(), [...languages].sort());
  });

  for (const language of languages) {
    it(`${language}: every key, with the same parameters as English`, async () => {
      const messages = (await HUB_LOCALES[language]()).default;
      assert.deepEqual(compareMessages(english, messages), []);
      assert.deepEqual(
        compareMessages(UI, messages.common).filter((problem) => !problem.includes("not in English")),
        [],
      );
    });

    it(`${language}: is a translation, and its functions return text for sample values`, async () => {
      const messages = (await HUB_LOCALES[language]()).default;
      assert.notEqual(messages.nav.settings, S.nav.settings);
      assert.notEqual(messages.bridges.devices(5), S.bridges.devices(5));
      for (const n of [0, 1, 2, 5, 22, 1000]) {
        assert.match(messages.bridges.devices(n), new RegExp(`${n === 1 ? "1" : n}`));
        assert.equal(typeof messages.limits.devicesLine(n, n, n), "string");
      }
    });
  }

  it("merging a translation replaces English texts and keeps English where a key is missing", () => {
    const target = structuredCloneStrings(S);
    mergeMessages(target, { nav: { settings: "Einstellungen" }, bridges: { devices: (n: number) => `${n} Geräte` } });
    assert.equal(target.nav.settings, "Einstellungen");
    assert.equal(target.nav.health, "Health");
    assert.equal(target.bridges.devices(3), "3 Geräte");
  });

  it("reports what a translation lacks", () => {
    const problems = compareMessages({ a: "A", b: { c: (x: number) => `${x}` } }, { b: { c: () => "", d: "" } });
    assert.deepEqual(problems, [
      "a: missing or not a string",
      "b.c: takes 0 parameter(s), English takes 1",
      "b.d: not in English",
    ]);
  });
});
