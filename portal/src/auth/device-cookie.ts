import { randomBytes } from "node:crypto";
import type { SecretBox } from "../crypto/secret-box.ts";
import { SecretBoxError } from "../crypto/secret-box.ts";

/** The device cookie's name; it is sent to `/api/auth/*` only (docs/portal.md, Administrators and sessions). */
export const DEVICE_COOKIE = "portal_device";
/** Its path: the login is the only place that reads it. */
export const DEVICE_COOKIE_PATH = "/api/auth";
/** Its lifetime: 90 days from the last successful login in this browser, which renews it. */
export const DEVICE_TTL_MS = 90 * 24 * 60 * 60 * 1000;

const CONTEXT = "portal-device-cookie";

/** What a device cookie says: this browser logged in to `account` (normalised e-mail); `id` names the browser. */
export interface Device {
  account: string;
  id: string;
}

/**
 * A new device cookie for `account`, sealed by the secret box (AES-256-GCM with its own context). OWASP's scheme asks
 * for an HMAC over the account and a nonce; the box's authentication tag does that job with the portal's key (a
 * forged or altered cookie does not open), keeps the key inside the box like every other secret of the portal, and
 * hides the e-mail from whoever sees the cookie.
 */
export function sealDeviceCookie(box: SecretBox, account: string, now: number): string {
  const payload = { account, id: randomBytes(16).toString("base64url"), exp: now + DEVICE_TTL_MS };
  return box.seal(JSON.stringify(payload), CONTEXT);
}

/** The device a cookie names, or undefined for anything else (forged, altered, another key, expired). */
export function openDeviceCookie(box: SecretBox, value: string, now: number): Device | undefined {
  try {
    const payload = JSON.parse(box.open(value, CONTEXT)) as Partial<Device & { exp: number }>;
    if (typeof payload.account !== "string" || typeof payload.id !== "string" || typeof payload.exp !== "number")
      return undefined;
    return payload.exp > now ? { account: payload.account, id: payload.id } : undefined;
  } catch (error) {
    if (error instanceof SecretBoxError || error instanceof SyntaxError) return undefined;
    throw error;
  }
}
