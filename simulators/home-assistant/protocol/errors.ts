/**
 * Errors that become `{success: false, error: {...}}` results. Codes are HA's websocket_api/const.py ones; the
 * translation fields are what HA adds for its translatable exceptions.
 */
export interface ErrorJson {
  code: string;
  message: string;
  translation_key?: string;
  translation_domain?: string;
  translation_placeholders?: Record<string, string>;
}

export class HaError extends Error {
  override name = "HaError";
  constructor(
    readonly code: string,
    message: string,
    readonly translation?: { domain: string; key: string; placeholders?: Record<string, string> },
  ) {
    super(message);
  }

  toJSON(): ErrorJson {
    const json: ErrorJson = { code: this.code, message: this.message };
    if (this.translation) {
      json.translation_key = this.translation.key;
      json.translation_domain = this.translation.domain;
      if (this.translation.placeholders) json.translation_placeholders = this.translation.placeholders;
    }
    return json;
  }
}

/** A voluptuous `Invalid`: the websocket API answers `invalid_format` with its text. */
export class Invalid extends Error {
  override name = "Invalid";
  constructor(
    message: string,
    readonly path: (string | number)[] = [],
    /** voluptuous' `error_type`, e.g. "dictionary value" for a bad value under a known key. */
    public errorType?: string,
  ) {
    super(message);
  }

  /** voluptuous' `str(Invalid)`: `<message>[ for <error_type>][ @ data['key']]`. */
  describe(): string {
    const type = this.errorType ? ` for ${this.errorType}` : "";
    const path =
      this.path.length > 0
        ? ` @ data[${this.path.map((p) => (typeof p === "number" || p.startsWith("<") ? p : `'${p}'`)).join("][")}]`
        : "";
    return `${this.message}${type}${path}`;
  }
}

/** `ServiceValidationError`: the caller asked for something the entity cannot do (code service_validation_error). */
export function serviceValidationError(
  message: string,
  key?: string,
  placeholders?: Record<string, string>,
  domain = "homeassistant",
): HaError {
  return new HaError(
    "service_validation_error",
    `Validation error: ${message}`,
    key ? { domain, key, ...(placeholders ? { placeholders } : {}) } : undefined,
  );
}

/** `HomeAssistantError`: the integration failed (code home_assistant_error). */
export function homeAssistantError(message: string): HaError {
  return new HaError("home_assistant_error", message);
}
