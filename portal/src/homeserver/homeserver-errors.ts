import { HttpError } from "../../../lib/http-error.ts";
import { errcodeOf, errorOf, type HomeserverResponse, HomeserverUnreachable } from "./homeserver-client.ts";

/**
 * Turns a homeserver refusal of an **admin** call into the portal's error. The admin caller's own mistakes keep
 * their status and Matrix code (400 `M_INVALID_PARAM`, 404 `M_NOT_FOUND`); problems between the portal and the
 * homeserver are 502 (a 401 here would read as "your portal session ended"); a 429 stays a 429.
 */
export function adminCallFailed(response: HomeserverResponse, what: string): HttpError {
  // Matrix homeservers explain every refusal with an `errcode`: anything else answering is not one, and saying
  // what it was (its status, its error text) would turn the admin API into a probe of arbitrary hosts and ports.
  const code = errcodeOf(response);
  if (code === undefined) return noHomeserver();
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

/**
 * What admins are told when no Matrix homeserver answered: one sentence for refused, timed out, DNS, TLS and
 * "something else answers there" alike, so a managed server's URL cannot be used to map hosts and ports. The cause
 * is in the portal log (docs/portal.md "Outbound calls").
 */
export const NO_HOMESERVER = "No Matrix homeserver answered at this server's internal URL (the cause is in the portal log)";

const noHomeserver = () => new HttpError(502, NO_HOMESERVER, "HOMESERVER_UNREACHABLE");

/** Why the outbound rules refused a call, for admins: it depends on the portal's configuration, not on the network. */
export const deniedMessage = (error: HomeserverUnreachable) =>
  `The portal's outbound rules refuse this server's internal URL: ${error.message}`;

/** An unreachable homeserver, for admin callers: refused by the outbound rules, or the one generic sentence. */
export function unreachable(error: HomeserverUnreachable): HttpError {
  return error.kind === "denied" ? new HttpError(502, deniedMessage(error), "OUTBOUND_DENIED") : noHomeserver();
}

/** The reason shown beside a failed check (bot tokens, appservices, diagnostics): as {@link unreachable} says it. */
export const unreachableReason = (error: HomeserverUnreachable) =>
  error.kind === "denied" ? deniedMessage(error) : NO_HOMESERVER;

/** Runs a homeserver call, turning unreachability into the admin-facing HttpError. */
export async function reach<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof HomeserverUnreachable) throw unreachable(error);
    throw error;
  }
}
