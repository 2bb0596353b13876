import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BRANDING_DEFAULTS, type SettingProblem } from "../../../../portal/src/contract.ts";
import { compareMessages, LANGUAGES, type Language } from "../../../common/i18n.ts";
import { UI } from "../../../common/strings.ts";
import { PORTAL_ADMIN_LOCALES } from "../admin/i18n.ts";
import { PUBLIC_LOCALES } from "../i18n.ts";
import { A } from "../strings/admin.ts";
import { ENGLISH_ERRORS, P } from "../strings/public.ts";

// Every portal translation (the public sign-up page's and the admin console's) has every key of its English table,
// no key English lacks, and functions that take the same parameters: a missing key fails here (the browser would
// silently show English). A language missing from a registry fails tsc (Record<Exclude<Language, "en">, …>).

/** One of every problem a bot setting can have, for the translated `bots.problem`. */
const SETTING_PROBLEMS: SettingProblem[] = [
  { code: "unknown" },
  ...(["text", "boolean", "integer", "list", "entry"] as const).map((expected) => ({ code: "type" as const, expected })),
  { code: "required" },
  { code: "tooLong", max: 64 },
  { code: "pattern" },
  { code: "pattern", hint: "an e-mail address" },
  { code: "range", min: 1, max: 9 },
  { code: "choice", options: ["a", "b"] },
  { code: "tooMany", max: 3 },
];

const languages = Object.keys(LANGUAGES).filter((language) => language !== "en") as Exclude<Language, "en">[];

describe("portal translations: public sign-up page", () => {
  it("ships a translation for every language the picker offers", () => {
    assert.deepEqual(Object.keys(PUBLIC_LOCALES).sort(), [...languages].sort());
  });

  it("English: the built-in branding texts are the portal's defaults, and every sign-up refusal has its text", () => {
    for (const [key, text] of Object.entries(P.brandingDefaults)) {
      assert.equal(text, BRANDING_DEFAULTS[key as keyof typeof P.brandingDefaults]);
    }
    assert.deepEqual(P.errors, ENGLISH_ERRORS);
  });

  for (const language of languages) {
    it(`${language}: every key, with the same parameters as English`, async () => {
      const messages = (await PUBLIC_LOCALES[language]()).default;
      assert.deepEqual(compareMessages(P, messages), []);
    });

    it(`${language}: is a translation, and its functions return text for sample values`, async () => {
      const messages = (await PUBLIC_LOCALES[language]()).default;
      assert.notEqual(messages.form.submit, P.form.submit);
      assert.notEqual(messages.brandingDefaults.registrationText, P.brandingDefaults.registrationText);
      assert.notEqual(messages.errors.M_USER_IN_USE, P.errors.M_USER_IN_USE);
      for (const n of [0, 1, 2, 5, 7, 22]) assert.match(messages.password.tooShort(n), new RegExp(`\\b${n}\\b`));
      assert.match(messages.success.step2("matrix.example.org"), /matrix\.example\.org/);
      assert.match(messages.form.usernamePreview("@dana:example.org"), /@dana:example\.org/);
      assert.equal(messages.password.levels.length, P.password.levels.length);
    });
  }
});

describe("portal translations: admin console", () => {
  it("has a translation file for every language the picker offers", () => {
    assert.deepEqual(Object.keys(PORTAL_ADMIN_LOCALES).sort(), [...languages].sort());
  });

  for (const language of languages) {
    it(`${language}: every key, with the same parameters as English`, async () => {
      const messages = (await PORTAL_ADMIN_LOCALES[language]()).default;
      assert.deepEqual(compareMessages(A, messages), []);
      assert.deepEqual(
        compareMessages(UI, messages.common).filter((problem) => !problem.includes("not in English")),
        [],
      );
    });

    it(`${language}: is a translation, and its functions return text for sample values`, async () => {
      const messages = (await PORTAL_ADMIN_LOCALES[language]()).default;
      assert.notEqual(messages, A, `the ${language} admin console is the English table`);
      assert.notEqual(messages.login.title, A.login.title);
      assert.notEqual(messages.nav.audit, A.nav.audit);
      for (const n of [0, 1, 2, 5, 22]) {
        assert.match(messages.diag.problems(n), new RegExp(`\\b${n}\\b`));
        assert.match(messages.audit.total(n), new RegExp(`\\b${n}\\b`));
        assert.match(messages.branding.contrast.failing(n), new RegExp(`\\b${n}\\b`));
      }
      for (const problem of SETTING_PROBLEMS) {
        const text = messages.bots.problem(problem);
        assert.ok(typeof text === "string" && text.length > 0, `${language}: no text for ${JSON.stringify(problem)}`);
      }
      assert.match(messages.bots.problem({ code: "range", min: 1, max: 9 }), /1.*9/);
    });
  }
});
