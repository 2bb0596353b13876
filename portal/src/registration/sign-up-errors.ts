import { HttpError } from "../../../lib/http-error.ts";
import { errcodeOf, errorOf, type HomeserverResponse } from "../homeserver/homeserver-client.ts";

/** Human messages for the Matrix codes a sign-up can end with (the visitor sees them as they are). */
const MESSAGES: Record<string, string> = {
  M_USER_IN_USE: "This username is already taken. Please choose another one.",
  M_INVALID_USERNAME: "This username is not allowed on this server.",
  M_EXCLUSIVE: "This username is reserved on this server. Please choose another one.",
  M_PASSWORD_TOO_SHORT: "The password is too short for this server.",
  M_PASSWORD_NO_DIGIT: "The password must contain at least one digit.",
  M_PASSWORD_NO_SYMBOL: "The password must contain at least one symbol.",
  M_PASSWORD_NO_UPPERCASE: "The password must contain at least one upper-case letter.",
  M_PASSWORD_NO_LOWERCASE: "The password must contain at least one lower-case letter.",
  M_WEAK_PASSWORD: "The password is too weak. Please choose a stronger one.",
  M_UNAUTHORIZED: "This registration token is not valid: it may be mistyped, expired or used up.",
  M_FORBIDDEN: "Registration is closed on this server.",
};

/** The visitor's message for a Matrix code of the table above, if it has one. */
export const signUpMessage = (code: string): string | undefined => MESSAGES[code];

/** The visitor's error for a refused token (the portal's own checks and the homeserver's token stage). */
export const tokenRefused = (message = MESSAGES.M_UNAUTHORIZED ?? "") => new HttpError(403, message, "M_UNAUTHORIZED");

/** The homeserver could not be reached or answered nonsense: nothing internal (URLs, reasons) goes to visitors. */
export const homeserverUnavailable = () =>
  new HttpError(503, "The homeserver is not reachable right now. Please try again later.", "M_UNKNOWN");

/**
 * A homeserver refusal during sign-up as `{success:false, error, errorCode}`: the Matrix code is kept, the message
 * is the portal's own (the homeserver's text is appended only for username rules, where it names the rule).
 * Status: 400 for username/password problems, 403 for token and closed registration, 429 with Retry-After
 * when the homeserver rate-limits, 503 otherwise.
 */
export function signUpRefused(response: HomeserverResponse): HttpError {
  const code = errcodeOf(response) ?? "M_UNKNOWN";
  if (response.status === 429) {
    const seconds = Math.max(1, Math.ceil((response.retryAfterMs ?? 1000) / 1000));
    return new HttpError(429, `The homeserver is busy. Please try again in ${seconds} seconds.`, "M_LIMIT_EXCEEDED", {
      "Retry-After": String(seconds),
    });
  }
  if (code === "M_UNAUTHORIZED") return tokenRefused();
  const known = MESSAGES[code];
  if (code === "M_INVALID_USERNAME" && errorOf(response)) return new HttpError(400, `${known} ${errorOf(response)}`, code);
  if (known) return new HttpError(response.status === 403 ? 403 : 400, known, code);
  if (response.status === 400)
    return new HttpError(400, `The homeserver refused the registration: ${errorOf(response) ?? code}`, code);
  return new HttpError(503, "The homeserver could not complete the registration. Please try again later.", code);
}
