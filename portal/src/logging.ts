import { type Logger, REDACTED_KEYS } from "../../lib/logger.ts";

/**
 * Field names of the portal that must never reach a log line, on top of lib/logger.ts's list (token, password,
 * adminToken, cookie, …). A pino child with its own `redact` replaces the parent's paths, so both lists are given.
 */
export const PORTAL_REDACTED_KEYS = [
  "confirmPassword",
  "passwordHash",
  "password_hash",
  "adminTokenEnc",
  "admin_token_enc",
  "sessionId",
  "sid",
  "secretKey",
  "accessTokenEnc",
  "access_token_enc",
  "value_enc",
  "valueEnc",
  "as_token",
  "hs_token",
  "asToken",
  "hsToken",
  "metricsToken",
  "masClientSecret",
  "mas_client_secret_enc",
  "masClientSecretEnc",
  "client_secret",
  "clientSecret",
];

/** The portal's root logger: a child of the process logger with the portal's redaction list added. */
export function portalLogger(log: Logger): Logger {
  const keys = [...REDACTED_KEYS, ...PORTAL_REDACTED_KEYS];
  const paths = keys.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]);
  return log.child({}, { redact: { paths, censor: "[redacted]" } });
}
