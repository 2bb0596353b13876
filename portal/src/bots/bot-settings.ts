/**
 * The settings schema of a bot template and the one function that checks a bot's `config` against it. A leaf module
 * (no imports): the portal validates with it, and the admin console (through `portal/src/contract.ts`) builds its
 * settings form from the same schema and shows the same verdicts per field while the admin types.
 */

/** A field inside one entry of an `entryList` (an FAQ entry, a relay route). */
export type EntryField = { key: string; label: string; description?: string } & (
  | { type: "text"; maxLength: number; required?: boolean; multiline?: boolean; pattern?: string; patternHint?: string }
  | { type: "textList"; maxItems: number; maxLength: number; pattern?: string; patternHint?: string }
  | { type: "boolean" }
);

/** One setting of a bot template: its type, default and limits drive the form and the validation. */
export type BotSetting = { key: string; label: string; description: string } & (
  | {
      type: "text";
      default: string | null;
      maxLength: number;
      /** Empty is refused; otherwise an empty field is stored as `""`, or `null` when `nullable`. */
      required?: boolean;
      nullable?: boolean;
      multiline?: boolean;
      /** A regular expression the whole value must match (anchored with ^…$ in the pattern itself). */
      pattern?: string;
      /** What the pattern asks for, in words ("a room ID such as !abc:example.org"). */
      patternHint?: string;
    }
  | { type: "boolean"; default: boolean }
  | { type: "integer"; default: number; min: number; max: number; unit?: string }
  | { type: "choice"; default: string; options: { value: string; label: string }[] }
  | { type: "textList"; default: string[]; maxItems: number; maxLength: number; pattern?: string; patternHint?: string }
  | { type: "entryList"; default: Record<string, unknown>[]; maxItems: number; itemLabel: string; fields: EntryField[] }
);

/** Why a value was refused, as a code and its numbers: the console words it in its language, the API in English. */
export type SettingProblem =
  | { code: "unknown" }
  | { code: "type"; expected: "text" | "boolean" | "integer" | "list" | "entry" }
  | { code: "required" }
  | { code: "tooLong"; max: number }
  | { code: "pattern"; hint?: string }
  | { code: "range"; min: number; max: number }
  | { code: "choice"; options: string[] }
  | { code: "tooMany"; max: number };

/** The problems of a config, by path: `welcomeMessage`, `feeds.2`, `entries.0.answer`. */
export type SettingProblems = Record<string, SettingProblem>;

/** The config a template starts from: every setting's default. */
export function settingDefaults(settings: readonly BotSetting[]): Record<string, unknown> {
  return Object.fromEntries(settings.map((setting) => [setting.key, structuredClone(setting.default)]));
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function checkText(
  value: unknown,
  rule: { maxLength: number; required?: boolean; nullable?: boolean; pattern?: string; patternHint?: string },
): SettingProblem | undefined {
  if (value === null && rule.nullable && !rule.required) return undefined;
  if (typeof value !== "string") return { code: "type", expected: "text" };
  if (value === "") return rule.required ? { code: "required" } : undefined;
  if (value.length > rule.maxLength) return { code: "tooLong", max: rule.maxLength };
  if (rule.pattern && !new RegExp(rule.pattern).test(value)) {
    return rule.patternHint === undefined ? { code: "pattern" } : { code: "pattern", hint: rule.patternHint };
  }
  return undefined;
}

function checkList(
  value: unknown,
  rule: { maxItems: number; maxLength: number; pattern?: string; patternHint?: string },
  path: string,
  problems: SettingProblems,
): void {
  if (!Array.isArray(value)) {
    problems[path] = { code: "type", expected: "list" };
    return;
  }
  if (value.length > rule.maxItems) problems[path] = { code: "tooMany", max: rule.maxItems };
  value.forEach((item, index) => {
    const problem = item === "" ? { code: "required" as const } : checkText(item, { ...rule, required: true });
    if (problem) problems[`${path}.${index}`] = problem;
  });
}

function checkEntries(value: unknown, setting: Extract<BotSetting, { type: "entryList" }>, problems: SettingProblems): void {
  if (!Array.isArray(value)) {
    problems[setting.key] = { code: "type", expected: "list" };
    return;
  }
  if (value.length > setting.maxItems) problems[setting.key] = { code: "tooMany", max: setting.maxItems };
  value.forEach((entry, index) => {
    const path = `${setting.key}.${index}`;
    if (!isObject(entry)) {
      problems[path] = { code: "type", expected: "entry" };
      return;
    }
    for (const key of Object.keys(entry)) {
      if (!setting.fields.some((field) => field.key === key)) problems[`${path}.${key}`] = { code: "unknown" };
    }
    for (const field of setting.fields) {
      const fieldPath = `${path}.${field.key}`;
      const item = entry[field.key];
      if (field.type === "boolean") {
        if (item !== undefined && typeof item !== "boolean") problems[fieldPath] = { code: "type", expected: "boolean" };
      } else if (field.type === "textList") {
        checkList(item ?? [], field, fieldPath, problems);
      } else {
        const problem = checkText(item ?? "", field);
        if (problem) problems[fieldPath] = problem;
      }
    }
  });
}

function checkSetting(setting: BotSetting, value: unknown, problems: SettingProblems): void {
  const path = setting.key;
  switch (setting.type) {
    case "text": {
      const problem = checkText(value, setting);
      if (problem) problems[path] = problem;
      return;
    }
    case "boolean":
      if (typeof value !== "boolean") problems[path] = { code: "type", expected: "boolean" };
      return;
    case "integer":
      if (typeof value !== "number" || !Number.isInteger(value)) problems[path] = { code: "type", expected: "integer" };
      else if (value < setting.min || value > setting.max) problems[path] = { code: "range", min: setting.min, max: setting.max };
      return;
    case "choice":
      if (!setting.options.some((option) => option.value === value)) {
        problems[path] = { code: "choice", options: setting.options.map((option) => option.value) };
      }
      return;
    case "textList":
      checkList(value, setting, path, problems);
      return;
    case "entryList":
      checkEntries(value, setting, problems);
      return;
  }
}

/**
 * Checks `config` against a template's settings: every key must be a setting (a typo is refused, not kept), each of
 * its type and within its limits; settings left out take their defaults. Returns the full config and the problems
 * by path (none: the config may be stored).
 */
export function checkBotSettings(
  settings: readonly BotSetting[],
  config: Record<string, unknown>,
): { config: Record<string, unknown>; problems: SettingProblems } {
  const problems: SettingProblems = {};
  for (const key of Object.keys(config)) {
    if (!settings.some((setting) => setting.key === key)) problems[key] = { code: "unknown" };
  }
  const full: Record<string, unknown> = {};
  for (const setting of settings) {
    const value = config[setting.key] === undefined ? structuredClone(setting.default) : config[setting.key];
    checkSetting(setting, value, problems);
    full[setting.key] = value;
  }
  return { config: full, problems };
}

const EXPECTED = { text: "text", boolean: "true or false", integer: "a whole number", list: "a list", entry: "an object" };

/** A problem in English, for the API's error message. */
export function describeProblem(problem: SettingProblem): string {
  switch (problem.code) {
    case "unknown":
      return "is not a setting of this template";
    case "type":
      return `must be ${EXPECTED[problem.expected]}`;
    case "required":
      return "is required";
    case "tooLong":
      return `must be at most ${problem.max} characters`;
    case "pattern":
      return problem.hint ? `must be ${problem.hint}` : "has an invalid format";
    case "range":
      return `must be between ${problem.min} and ${problem.max}`;
    case "choice":
      return `must be one of ${problem.options.join(", ")}`;
    case "tooMany":
      return `may hold at most ${problem.max} items`;
  }
}
