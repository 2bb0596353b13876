import { generateKeyPair, randomBytes, randomUUID } from "node:crypto";
import { promisify } from "node:util";
import * as v from "valibot";
import { badRequest, HttpError } from "../../../lib/http-error.ts";
import { type SecretBox, SecretBoxError } from "../crypto/secret-box.ts";
import type { CatalogEntry, SecretGenerator, SecretSpec } from "./catalog/types.ts";
import type { IntegrationsRepository, SecretRow } from "./integrations.repository.ts";

/** The secret box context of an integration secret: the ciphertext only opens for this integration and key. */
export const integrationSecretContext = (integrationId: string, key: string) => `integration:${integrationId}:secret:${key}`;

export interface SecretRecord {
  id: string;
  key: string;
  /** Made by the portal (appservice tokens, keys) rather than set by an admin. */
  generated: boolean;
  rotatedAt: string | null;
  createdAt: string;
}

/** The secrets a configuration needs (those with a `when` that does not hold are left out). */
export const applicableSecrets = (entry: CatalogEntry, config: Record<string, unknown>) =>
  entry.secrets.filter((spec) => spec.when === undefined || spec.when(config));

/** The longest secret key accepted (docs/portal.md, Integrations). */
export const SECRET_KEY_MAX_LENGTH = 128;

/**
 * Control characters, invisible format characters (bidi overrides, zero-width joiners), lone surrogates and line
 * separators: they would make two different keys look alike in the console or break the line a key is shown on.
 */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;

/**
 * The `key` of `POST /api/admin/integrations/:id/secrets`. The spec only says "`key` string", so any reasonable name
 * is accepted (`api_hash`, `API_HASH`, `bridge.token`...): trimmed, 1-128 characters, nothing unprintable.
 */
export const SecretKeyField = v.pipe(
  v.string("key must be a string"),
  v.trim(),
  v.nonEmpty("key is required"),
  v.maxLength(SECRET_KEY_MAX_LENGTH, `key must be at most ${SECRET_KEY_MAX_LENGTH} characters`),
  v.check((key) => !UNPRINTABLE.test(key), "key must not contain control or invisible formatting characters"),
);

/** The environment-variable style name of a required input, for the diagnostics' `envVars*` lists. */
export const envName = (entry: CatalogEntry, spec: SecretSpec) =>
  spec.env ?? `${entry.id.replace(/[^A-Za-z0-9]+/g, "_").toUpperCase()}_${spec.key.toUpperCase()}`;

async function generateSecret(kind: SecretGenerator): Promise<string> {
  if (kind === "token") return randomBytes(32).toString("base64url");
  if (kind === "password") return randomBytes(18).toString("base64url");
  const { privateKey } = await promisify(generateKeyPair)("rsa", {
    modulusLength: 4096,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  return privateKey;
}

/** An integration's secrets sealed with the portal's secret box, bound to their integration and key. */
export class IntegrationSecrets {
  constructor(
    private readonly box: SecretBox,
    private readonly repository: IntegrationsRepository,
  ) {}

  /** A new secret row holding `value` sealed for this integration and key. */
  sealedRow(integrationId: string, key: string, value: string, generated: boolean, nowIso: string): SecretRow {
    return {
      id: randomUUID(),
      integration_id: integrationId,
      key,
      value_enc: this.box.seal(value, integrationSecretContext(integrationId, key)),
      generated: generated ? 1 : 0,
      created_at: nowIso,
      rotated_at: null,
    };
  }

  /** Generates (and seals) the applicable secrets of `config` that `present` lacks. */
  async generateMissing(
    integrationId: string,
    entry: CatalogEntry,
    config: Record<string, unknown>,
    present: ReadonlySet<string>,
    nowIso: string,
  ): Promise<{ rows: SecretRow[]; plain: Map<string, string> }> {
    const rows: SecretRow[] = [];
    const plain = new Map<string, string>();
    for (const spec of applicableSecrets(entry, config)) {
      if (!spec.generate || present.has(spec.key)) continue;
      const value = await generateSecret(spec.generate);
      plain.set(spec.key, value);
      rows.push(this.sealedRow(integrationId, spec.key, value, true, nowIso));
    }
    return { rows, plain };
  }

  /** The decrypted secrets of an integration (500 SECRET_UNREADABLE when the key changed). */
  async open(integrationId: string): Promise<Map<string, string>> {
    const plain = new Map<string, string>();
    for (const secret of await this.repository.listSecrets(integrationId)) {
      try {
        plain.set(secret.key, this.box.open(secret.value_enc, integrationSecretContext(integrationId, secret.key)));
      } catch (error) {
        if (!(error instanceof SecretBoxError)) throw error;
        throw new HttpError(
          500,
          `The stored secret ${secret.key} cannot be decrypted: the portal's secret key changed. Restore the key, or set the secret again.`,
          "SECRET_UNREADABLE",
        );
      }
    }
    return plain;
  }
}

export function toSecretRecord(row: SecretRow): SecretRecord {
  return { id: row.id, key: row.key, generated: row.generated === 1, rotatedAt: row.rotated_at, createdAt: row.created_at };
}

/**
 * The secret a key names: the entry's secret with that key, or the one the diagnostics list under that
 * environment-style name (`envVarsMissing`), so a client that fills in what the diagnostics ask for by those names
 * sets the real input. Undefined for any other key: an admin's own secret, stored but used by no generated file.
 */
export const findSecretSpec = (entry: CatalogEntry, key: string): SecretSpec | undefined =>
  entry.secrets.find((spec) => spec.key === key) ?? entry.secrets.find((spec) => envName(entry, spec) === key);

/**
 * What a secret value may contain, by where it goes: a PEM key may span lines; appservice tokens are bearer tokens
 * (visible ASCII, 16-512); everything else is one line without control characters, and values that travel through
 * secrets.env must not contain a single quote (the file quotes with them). An admin's own secret (no spec) goes into
 * no file, so only its length is checked.
 */
export function checkSecretValue(spec: SecretSpec | undefined, value: string): void {
  if (value.length === 0 || value.length > 20_000) throw badRequest("value must be 1-20000 characters");
  if (spec === undefined) return;
  if (spec.generate === "rsa4096") {
    if (!/^-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]+-----END [A-Z ]*PRIVATE KEY-----\s*$/.test(value)) {
      throw badRequest(`${spec.key} must be a PEM private key`);
    }
    return;
  }
  if (spec.key === "as_token" || spec.key === "hs_token" || spec.key.endsWith("_as_token") || spec.key.endsWith("_hs_token")) {
    if (!/^[\x21-\x7e]{16,512}$/.test(value)) throw badRequest(`${spec.key} must be 16-512 visible ASCII characters`);
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(value)) throw badRequest("value must be a single line without control characters");
  if (spec.env !== undefined && value.includes("'")) throw badRequest(`${spec.key} must not contain a single quote (')`);
}
