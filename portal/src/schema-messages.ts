import type * as v from "valibot";

/**
 * The message of the portal's object schemas. valibot reports a missing field as `Invalid key: Expected "name"
 * but received undefined`; this says `is required`, or `is not a known field` for a strict object's extra key.
 * lib/validate.ts prefixes the field path, giving e.g. `Invalid json: name: is required`.
 */
export function objectMessage(issue: v.BaseIssue<unknown>): string {
  if (issue.expected === "never") return "is not a known field";
  if (issue.input === undefined && issue.expected?.startsWith('"')) return "is required";
  return "must be a JSON object";
}
