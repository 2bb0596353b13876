import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import YAML from "yaml";
import { LANGUAGES } from "../web/common/i18n.ts";

// The add-on's option texts in every language the UIs ship (the Supervisor shows translations/<language>.yaml in
// the frontend's language, English otherwise): each file has exactly en.yaml's keys, every text filled in and
// translated, with the same `code` spans (option values and interface names stay as they are).

const dir = fileURLToPath(new URL("../translations/", import.meta.url));
const load = (file: string) => YAML.parse(readFileSync(`${dir}/${file}`, "utf8")) as Record<string, unknown>;

/** Every leaf of a nested object as "path" → text. */
function leaves(value: unknown, path = ""): Map<string, unknown> {
  if (typeof value !== "object" || value === null) return new Map([[path, value]]);
  return new Map(Object.entries(value).flatMap(([key, child]) => [...leaves(child, path ? `${path}.${key}` : key)]));
}

const english = leaves(load("en.yaml"));
const codeSpans = (text: string) => (text.match(/`[^`]+`/g) ?? []).sort();

describe("add-on option translations", () => {
  it("has a file for every UI language, and no other", () => {
    const files = readdirSync(dir).filter((file) => file.endsWith(".yaml"));
    assert.deepEqual(
      files.sort(),
      Object.keys(LANGUAGES)
        .map((language) => `${language}.yaml`)
        .sort(),
    );
  });

  for (const language of Object.keys(LANGUAGES).filter((language) => language !== "en")) {
    it(`${language}.yaml has en.yaml's keys, each translated, with the same code spans`, () => {
      const translated = leaves(load(`${language}.yaml`));
      assert.deepEqual([...translated.keys()].sort(), [...english.keys()].sort());
      for (const [path, text] of translated) {
        assert.equal(typeof text, "string", path);
        const source = english.get(path) as string;
        assert.ok((text as string).trim().length > 0, `${path} is empty`);
        assert.notEqual(text, source, `${path} is still English`);
        assert.deepEqual(codeSpans(text as string), codeSpans(source), `${path} keeps the code spans`);
      }
    });
  }
});
