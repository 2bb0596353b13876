import * as v from "valibot";
import { LOG_FORMATS, type LogFormat } from "./log-format.ts";
import { LOG_LEVELS } from "./logger.ts";

/** Raised when the environment does not describe a valid configuration; main prints it as one line. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

const trimmed = v.pipe(v.string(), v.trim());

/** An optional string variable: empty means unset. */
export const optionalText = v.optional(
  v.pipe(
    trimmed,
    v.transform((value) => (value === "" ? undefined : value)),
  ),
);

/** A TCP/UDP port given as a decimal string. `allowZero` lets tests ask the OS for a free port. */
export function portVariable(fallback: number, allowZero = false) {
  return v.optional(
    v.pipe(
      trimmed,
      v.regex(/^\d{1,5}$/, "must be a port number"),
      v.transform(Number),
      v.number(),
      v.minValue(allowZero ? 0 : 1, `must be between ${allowZero ? 0 : 1} and 65535`),
      v.maxValue(65535, `must be between ${allowZero ? 0 : 1} and 65535`),
    ),
    String(fallback),
  );
}

/** HUB_LOG_FORMAT / PORTAL_LOG_FORMAT: readable lines unless JSON is asked for (lib/log-format.ts). */
export const logFormatVariable = v.optional(
  v.pipe(
    trimmed,
    v.toLowerCase(),
    v.picklist(["", ...LOG_FORMATS], `must be one of ${LOG_FORMATS.join(", ")}`),
    v.transform((value): LogFormat => (value === "" ? "pretty" : value)),
  ),
  "",
);

export const logLevelVariable = v.optional(v.picklist(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(", ")}`), "info");

/** `1`, `true`, `yes`, `on` (any case) are true; empty or unset is false. */
export const flagVariable = v.optional(
  v.pipe(
    trimmed,
    v.toLowerCase(),
    v.picklist(["", "0", "1", "true", "false", "yes", "no", "on", "off"], "must be 1/0, true/false, yes/no or on/off"),
    v.transform((value) => ["1", "true", "yes", "on"].includes(value)),
  ),
  "",
);

/** Parses `env` with `schema`, or throws a ConfigError naming every bad variable in one line. */
export function parseEnv<TSchema extends v.GenericSchema>(
  schema: TSchema,
  env: Record<string, string | undefined>,
): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, env);
  if (result.success) return result.output;
  const problems = result.issues.map((issue) => {
    const key = v.getDotPath(issue) ?? "configuration";
    const shown = typeof issue.input === "string" ? ` (got "${issue.input.slice(0, 40)}")` : "";
    return `${key} ${issue.message}${shown}`;
  });
  throw new ConfigError(`invalid configuration: ${problems.join("; ")}`);
}
