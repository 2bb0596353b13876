/**
 * Saving a plugin configuration: values are checked against the plugin's schema where it declares a field (type,
 * minimum, maximum), undeclared keys are kept (schemas may grow at run time, e.g. one switch per cloud device),
 * and `secret` fields are split off into `secrets.json`. An empty or missing secret keeps the stored one, so a
 * form that never shows the password can be saved again; `null` deletes it.
 */
import { badRequest } from "../../../lib/http-error.ts";
import type { PluginConfig, PluginConfigSchema } from "./api.ts";

/** A configuration ready to store: public part, secrets, and what the plugin receives (both merged). */
export interface PreparedConfig {
  config: PluginConfig;
  secrets: Record<string, string>;
  full: PluginConfig;
}

function checkValue(key: string, value: unknown, property: PluginConfigSchema["properties"][string]): void {
  const fail = (what: string) => {
    throw badRequest(`config.${key} must be ${what}`);
  };
  switch (property.type) {
    case "string":
      if (typeof value !== "string") fail("a string");
      return;
    case "boolean":
      if (typeof value !== "boolean") fail("true or false");
      return;
    case "integer":
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) fail("a number");
      if (property.type === "integer" && !Number.isInteger(value)) fail("an integer");
      if (property.minimum !== undefined && (value as number) < property.minimum) fail(`at least ${property.minimum}`);
      if (property.maximum !== undefined && (value as number) > property.maximum) fail(`at most ${property.maximum}`);
      return;
  }
}

/** Checks `input` and splits its secrets, keeping stored secrets the input leaves empty. */
export function prepareConfig(
  schema: PluginConfigSchema | undefined,
  input: Record<string, unknown>,
  storedSecrets: Record<string, string>,
): PreparedConfig {
  const properties = schema?.properties ?? {};
  const config: PluginConfig = {};
  const secrets: Record<string, string> = {};
  for (const [key, property] of Object.entries(properties)) {
    if (property.secret && typeof storedSecrets[key] === "string") secrets[key] = storedSecrets[key];
  }
  for (const [key, value] of Object.entries(input)) {
    const property = properties[key];
    if (property?.secret) {
      if (value === null) delete secrets[key];
      else if (value !== undefined && value !== "") {
        checkValue(key, value, property);
        secrets[key] = value as string;
      }
      continue;
    }
    if (value === undefined) continue;
    if (property && value !== null) checkValue(key, value, property);
    config[key] = value;
  }
  return { config, secrets, full: { ...config, ...secrets } };
}

/** The configuration as the API shows it: without secrets, naming which secrets are set. */
export function publicConfig(config: PluginConfig | undefined, secrets: Record<string, string>) {
  return { config: config ?? null, secretsSet: Object.keys(secrets).sort() };
}
