import { HttpError } from "../../../lib/http-error.ts";
import { errcodeOf, errorOf, type HomeserverResponse, HomeserverUnreachable } from "./homeserver-client.ts";

/**
 * Turns a homeserver refusal of an **admin** call into the portal's error. The admin caller's own mistakes keep
 * their status and Matrix code (400 `M_INVALID_PARAM`, 404 `M_NOT_FOUND`); problems between the portal and the
 * homeserver are 502 (a 401 here would read as "your portal session ended"); a 429 stays a 429.
 */
export function adminCallFailed(response: HomeserverResponse, what: string): HttpError {
  const code = errcodeOf(response) ?? "M_UNKNOWN";
  const message = errorOf(response) ?? `HTTP ${response.status}`;
  if (response.status === 401 || response.status === 403) {
    return new HttpError(
      502,
      `The homeserver refused the stored admin token (${code}: ${message}); rotate it with a server admin's token`,
      code,
    );
  }
  if (response.status === 404 && code === "M_UNRECOGNIZED") {
    return new HttpError(
      502,
      `The homeserver does not offer ${what}: is /_synapse/admin reachable from the portal, and is delegated authentication (MSC3861) off?`,
      code,
    );
  }
  if (response.status === 429) {
    const wait = Math.max(1, Math.ceil((response.retryAfterMs ?? 1000) / 1000));
    return new HttpError(429, `The homeserver is rate limiting the portal; try again in ${wait} s`, code, {
      "Retry-After": String(wait),
    });
  }
  if (response.status === 400 || response.status === 404) return new HttpError(response.status, message, code);
  return new HttpError(502, `The homeserver failed on ${what} (HTTP ${response.status}: ${message})`, code);
}

/** An unreachable homeserver, for admin callers (who may see the reason). */
export function unreachable(error: HomeserverUnreachable): HttpError {
  return error.timedOut
    ? new HttpError(504, "The homeserver did not answer in time", "HOMESERVER_TIMEOUT")
    : new HttpError(502, `The homeserver could not be reached (${error.message})`, "HOMESERVER_UNREACHABLE");
}

/** Runs a homeserver call, turning unreachability into the admin-facing HttpError. */
export async function reach<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof HomeserverUnreachable) throw unreachable(error);
    throw error;
  }
}
