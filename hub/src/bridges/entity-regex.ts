import { RE2JS, RE2JSSyntaxException } from "re2js";

/**
 * Longest `regex` filter rule accepted. Entity-id patterns people write are well under 100 characters; RE2 runs in
 * time linear in the input whatever the pattern, and this bound (with RE2's own cap of 1000 on repeat counts)
 * keeps the compiled program, and so the cost per character, small (docs/decisions.md, "Filters").
 */
export const MAX_REGEX_LENGTH = 256;

/** What filters need of a compiled pattern. */
export interface EntityPattern {
  /** True when the pattern matches anywhere in `input` (as `RegExp.prototype.test`). */
  test(input: string): boolean;
}

export type CompiledRegex = { pattern: EntityPattern; problem?: undefined } | { pattern?: undefined; problem: string };

const ENGINE = "which the hub's linear-time regular expression engine (RE2) does not support";

/**
 * Constructs a backtracking engine has and RE2 lacks, found before RE2 sees the pattern so that the message names
 * them (RE2 would say "invalid escape" or "invalid named capture"), and before `translateRegExp`, which would turn
 * `\k<name>` into a literal. Escapes and character classes are skipped, so `[(?=]` or `\(?=` are not taken for one.
 */
function unsupportedConstruct(source: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (char === "\\") {
      const next = source[i + 1] ?? "";
      if (!inClass && (/[1-9]/.test(next) || (next === "k" && source[i + 2] === "<"))) {
        return `value uses a backreference (\\1 or \\k<name>), ${ENGINE}`;
      }
      i++;
    } else if (inClass) {
      if (char === "]") inClass = false;
    } else if (char === "[") {
      inClass = true;
      // A `]` right after `[` or `[^` is a literal member, not the end of the class.
      if (source[i + 1] === "^") i++;
      if (source[i + 1] === "]") i++;
    } else if (source.startsWith("(?=", i) || source.startsWith("(?!", i)) {
      return `value uses a lookahead ((?=…) or (?!…)), ${ENGINE}`;
    } else if (source.startsWith("(?<=", i) || source.startsWith("(?<!", i)) {
      return `value uses a lookbehind ((?<=…) or (?<!…)), ${ENGINE}`;
    }
  }
  return undefined;
}

/**
 * Compiles a user's regular expression (JavaScript syntax, as the UI and the API have always taken it) for RE2,
 * which matches in time linear in the input: a pattern such as `^[a-z]+\.([a-z_]+)+!$`, which makes a backtracking
 * engine run for minutes on a long entity id, costs microseconds here. Never throws: a refused pattern comes back
 * as a `problem` sentence naming the reason (too long, a backreference, a lookaround, or RE2's syntax error).
 */
export function compileEntityRegex(source: string): CompiledRegex {
  if (source.length > MAX_REGEX_LENGTH) {
    return { problem: `value is longer than ${MAX_REGEX_LENGTH} characters, the limit for a regular expression` };
  }
  const unsupported = unsupportedConstruct(source);
  if (unsupported) return { problem: unsupported };
  try {
    // translateRegExp rewrites JavaScript-only spellings with the same meaning (`\u0041`, `(?<name>…)`, `[^]`).
    return { pattern: RE2JS.compile(RE2JS.translateRegExp(source)) };
  } catch (error) {
    if (error instanceof RE2JSSyntaxException) {
      const where = error.input ? ` at \`${error.input}\`` : "";
      return { problem: `value must be a valid regular expression (${error.error}${where})` };
    }
    return { problem: "value must be a valid regular expression" };
  }
}

/**
 * A glob on the whole entity id, case-insensitive: `*` any run of characters, `?` one character, everything else
 * literal. Compiled for RE2 too: as a backtracking expression, `*a*a*a*…` is polynomial with a large exponent.
 */
export function compileGlob(glob: string): EntityPattern {
  const body = glob
    .split(/([*?])/)
    .map((part) => (part === "*" ? ".*" : part === "?" ? "." : RE2JS.quote(part)))
    .join("");
  return RE2JS.compile(`^${body}$`, RE2JS.CASE_INSENSITIVE);
}
