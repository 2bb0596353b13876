import type { SecretBox } from "../crypto/secret-box.ts";
import { SecretBoxError } from "../crypto/secret-box.ts";

/** The session cookie's name (docs/portal.md lists its attributes). */
export const SESSION_COOKIE = "portal_session";
/** Absolute session lifetime: 12 hours from login, not extended by activity. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

const CONTEXT = "portal-session-cookie";

/** What the cookie carries, sealed by the secret box: the session id (looked up server-side) and its expiry. */
export interface CookiePayload {
  sid: string;
  exp: number;
}

export function sealCookie(box: SecretBox, payload: CookiePayload): string {
  return box.seal(JSON.stringify(payload), CONTEXT);
}

/** The payload of a cookie this portal sealed, or undefined for anything else (forged, altered, other key). */
export function openCookie(box: SecretBox, value: string): CookiePayload | undefined {
  try {
    const payload = JSON.parse(box.open(value, CONTEXT)) as Partial<CookiePayload>;
    if (typeof payload.sid !== "string" || typeof payload.exp !== "number") return undefined;
    return { sid: payload.sid, exp: payload.exp };
  } catch (error) {
    if (error instanceof SecretBoxError || error instanceof SyntaxError) return undefined;
    throw error;
  }
}
