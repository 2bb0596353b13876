import { HttpError } from "../../../lib/http-error.ts";
import type { HomeserverResponse } from "../homeserver/homeserver-client.ts";
import { HomeserverUnreachable } from "../homeserver/homeserver-client.ts";

/**
 * What admins are told when no MAS answered at a server's MAS URL: one sentence for refused, timed out, DNS, TLS and
 * "something else answers there" (a proxy's 502 page included), so that the MAS URL cannot be used to map hosts and
 * ports. The cause is in the portal log.
 */
export const NO_MAS = "No Matrix Authentication Service answered at this server's MAS URL (the cause is in the portal log)";

export const noMas = () => new HttpError(502, NO_MAS, "MAS_UNREACHABLE");

/** MAS's admin API errors: `{errors: [{title}]}`, outermost first. */
export function masTitles(response: HomeserverResponse): string[] | undefined {
  const errors = response.body.errors;
  if (!Array.isArray(errors)) return undefined;
  return errors
    .map((error) => (error as { title?: unknown })?.title)
    .filter((title): title is string => typeof title === "string");
}

/** The OAuth error of a token endpoint answer (`{error, error_description?}`), if it is one. */
export function oauthError(response: HomeserverResponse): { error: string; description?: string } | undefined {
  const { error, error_description: description } = response.body;
  if (typeof error !== "string") return undefined;
  return typeof description === "string" ? { error, description } : { error };
}

/**
 * Turns a MAS admin API refusal into the portal's error. Only answers in MAS's error shape are explained; anything
 * else is "no MAS answered". The caller's own mistakes keep their status (400, 404, 409); a refused access token (after
 * the one retry with a fresh one) and MAS's own failures are 502, never a 401 (which would read as "your portal
 * session ended").
 */
export function masCallFailed(response: HomeserverResponse, what: string): HttpError {
  const titles = masTitles(response);
  if (titles === undefined) return noMas();
  const title = titles[0] ?? `HTTP ${response.status}`;
  if (response.status === 401 || response.status === 403) {
    return new HttpError(
      502,
      `MAS refused the portal's access token (${title}): check that the OAuth client is still listed in MAS's policy.data.admin_clients`,
      "MAS_TOKEN_REFUSED",
    );
  }
  if (response.status === 409) return new HttpError(409, title, "CONFLICT");
  if (response.status === 429) {
    const wait = Math.max(1, Math.ceil((response.retryAfterMs ?? 1000) / 1000));
    return new HttpError(429, `MAS is rate limiting the portal; try again in ${wait} s`, "RATE_LIMITED", {
      "Retry-After": String(wait),
    });
  }
  if (response.status === 400 || response.status === 404) return new HttpError(response.status, title, "MAS_REFUSED");
  return new HttpError(502, `MAS failed on ${what} (HTTP ${response.status}: ${title})`, "MAS_ERROR");
}

/** A token endpoint refusal, in words that say which part of MAS's configuration to fix. */
export function grantFailed(response: HomeserverResponse): HttpError {
  const oauth = oauthError(response);
  if (oauth === undefined) return noMas();
  const detail = oauth.description ? `${oauth.error}: ${oauth.description}` : oauth.error;
  switch (oauth.error) {
    case "invalid_client":
      return new HttpError(
        502,
        `MAS refused the portal's OAuth client (${detail}): check the client id and secret, and that MAS's clients: section lists the client with client_secret_basic or client_secret_post`,
        "MAS_CLIENT_REFUSED",
      );
    case "unauthorized_client":
      return new HttpError(
        502,
        `MAS does not let this OAuth client use the client_credentials grant (${detail})`,
        "MAS_CLIENT_REFUSED",
      );
    case "invalid_scope":
      return new HttpError(
        502,
        `MAS refused the urn:mas:admin scope to this client (${detail}): add its client id to policy.data.admin_clients in MAS's configuration`,
        "MAS_SCOPE_REFUSED",
      );
    default:
      return new HttpError(
        502,
        `MAS's token endpoint refused the client credentials grant (HTTP ${response.status}, ${detail})`,
        "MAS_ERROR",
      );
  }
}

/** An unreachable MAS, for admin callers: refused by the outbound rules, or the one generic sentence. */
export function masUnreachable(error: HomeserverUnreachable): HttpError {
  return error.kind === "denied"
    ? new HttpError(502, `The portal's outbound rules refuse this server's MAS URL: ${error.message}`, "OUTBOUND_DENIED")
    : noMas();
}

/** Runs a MAS call, turning unreachability into the admin-facing HttpError. */
export async function reachMas<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof HomeserverUnreachable) throw masUnreachable(error);
    throw error;
  }
}
