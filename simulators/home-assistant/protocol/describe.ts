/**
 * What `get_config`, `get_services` and `auth/current_user` answer: HA's `Config.as_dict()`, the service
 * descriptions HA builds from services.yaml (here derived from the simulator's schemas), and the token's user.
 */
import type { ServiceSpec } from "../services/types.ts";

export type CoreState = "NOT_RUNNING" | "STARTING" | "RUNNING" | "STOPPING" | "FINAL_WRITE";

export interface SimUser {
  id: string;
  name: string;
}

const UNIT_SYSTEMS = {
  metric: {
    length: "km",
    accumulated_precipitation: "mm",
    area: "m²",
    mass: "g",
    pressure: "Pa",
    temperature: "°C",
    volume: "L",
    wind_speed: "m/s",
  },
  us_customary: {
    length: "mi",
    accumulated_precipitation: "in",
    area: "ft²",
    mass: "lb",
    pressure: "psi",
    temperature: "°F",
    volume: "gal",
    wind_speed: "mph",
  },
} as const;

export type UnitSystemName = keyof typeof UNIT_SYSTEMS;

/** Integrations every HA instance loads, besides the entity domains and platforms of the home. */
const CORE_COMPONENTS = ["api", "auth", "config", "frontend", "homeassistant", "http", "person", "websocket_api", "zone"];

export function configJson(options: {
  version: string;
  state: CoreState;
  unitSystem: UnitSystemName;
  locationName: string;
  components: Iterable<string>;
}): Record<string, unknown> {
  return {
    allowlist_external_dirs: ["/media", "/config/www"],
    allowlist_external_urls: [],
    components: [...new Set([...CORE_COMPONENTS, ...options.components])].sort(),
    config_dir: "/config",
    config_source: "storage",
    country: "NL",
    currency: "EUR",
    debug: false,
    elevation: 2,
    external_url: null,
    internal_url: null,
    language: "en",
    latitude: 52.3731,
    location_name: options.locationName,
    longitude: 4.8922,
    radius: 100,
    recovery_mode: false,
    safe_mode: false,
    state: options.state,
    time_zone: "Europe/Amsterdam",
    unit_system: { ...UNIT_SYSTEMS[options.unitSystem] },
    version: options.version,
    whitelist_external_dirs: ["/media", "/config/www"],
  };
}

const title = (name: string) => name.replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase());

/** `get_services`: `{domain: {service: {name, description, fields, target?, response?}}}`. */
export function servicesJson(specs: readonly ServiceSpec[]): Record<string, Record<string, unknown>> {
  const result: Record<string, Record<string, unknown>> = {};
  for (const spec of specs) {
    const fields: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(spec.fields)) {
      fields[key] = { required: field.required ?? false, selector: field.selector, name: title(key), description: "" };
    }
    const description: Record<string, unknown> = { name: title(spec.service), description: "", fields };
    if (spec.entity) {
      const filter = spec.entity.requiredFeatures ? { supported_features: [...spec.entity.requiredFeatures] } : {};
      description.target = { entity: [{ domain: [spec.domain], ...filter }] };
    }
    if (spec.response) description.response = { optional: spec.response === "optional" };
    result[spec.domain] ??= {};
    result[spec.domain]![spec.service] = description;
  }
  return result;
}

export function userJson(user: SimUser): Record<string, unknown> {
  return {
    id: user.id,
    name: user.name,
    is_owner: true,
    is_admin: true,
    credentials: [{ auth_provider_type: "homeassistant", auth_provider_id: null }],
    mfa_modules: [{ id: "totp", name: "Authenticator app", enabled: false }],
  };
}
