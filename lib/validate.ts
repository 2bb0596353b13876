import type { ValidationTargets } from "hono";
import { validator } from "hono/validator";
import * as v from "valibot";
import { HttpError } from "./http-error.ts";

/** Turns valibot issues into one readable sentence naming each offending field. */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const path = v.getDotPath(issue);
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

/**
 * The one wrapped validator: parses a request part with a valibot schema and throws a 400 HttpError in the
 * server's error shape when it does not fit. A JSON body that is not JSON at all is a 400 too.
 */
export function validate<Target extends keyof ValidationTargets, TSchema extends v.GenericSchema>(
  target: Target,
  schema: TSchema,
) {
  return validator(target, (value) => {
    const result = v.safeParse(schema, value);
    if (!result.success) throw new HttpError(400, `Invalid ${target}: ${describeIssues(result.issues)}`);
    return result.output as v.InferOutput<TSchema>;
  });
}

/** Parses a value already in hand (e.g. a multipart field) with the same error semantics. */
export function parseOr400<TSchema extends v.GenericSchema>(schema: TSchema, value: unknown, what: string) {
  const result = v.safeParse(schema, value);
  if (!result.success) throw new HttpError(400, `Invalid ${what}: ${describeIssues(result.issues)}`);
  return result.output as v.InferOutput<TSchema>;
}
