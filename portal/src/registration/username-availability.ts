import * as v from "valibot";
import { HttpError } from "../../../lib/http-error.ts";
import type { HomeserverConnector } from "../homeserver/connector.ts";
import { errcodeOf, errorOf, type HomeserverResponse, HomeserverUnreachable } from "../homeserver/homeserver-client.ts";
import type { ServerRow } from "../servers/servers.repository.ts";
import { Username } from "./registration.schema.ts";
import { homeserverUnavailable, signUpMessage } from "./sign-up-errors.ts";

/** Synapse's `MAX_USERID_LENGTH`: the whole `@localpart:server` id. */
export const MAX_USER_ID = 255;

/**
 * The answer of `GET /api/register/username-available`: `available`, or why not with the Matrix code sign-up would
 * end with (`M_INVALID_USERNAME`, `M_USER_IN_USE`, `M_EXCLUSIVE`) and the visitor's message. A verdict, not an error.
 */
export type UsernameVerdict = { available: true; username: string } | { available: false; errorCode: string; error: string };

const refused = (errorCode: string, error: string): UsernameVerdict => ({ available: false, errorCode, error });

/** A homeserver answer to an availability question as a verdict; undefined when it did not answer the question. */
function verdictOf(response: HomeserverResponse, username: string): UsernameVerdict | undefined {
  if (response.status === 200 && response.body.available === true) return { available: true, username };
  const code = errcodeOf(response);
  if (response.status !== 400 || code === undefined) return undefined;
  if (code === "M_INVALID_USERNAME") {
    return refused(code, [signUpMessage(code), errorOf(response)].filter(Boolean).join(" "));
  }
  return refused(code, signUpMessage(code) ?? errorOf(response) ?? code);
}

/**
 * Whether `raw` can be registered on `server`, without creating anything: the portal's own username rule first
 * (as sign-up applies it: trimmed and lower-cased), then the homeserver. Synapse's admin `username_available`
 * (not rate limited; the portal limits callers itself) is asked first; without a usable admin token the public
 * `/register/available`, which Synapse rate-limits per portal IP, answers instead. 503 when neither can answer.
 */
export async function checkUsername(connector: HomeserverConnector, server: ServerRow, raw: string): Promise<UsernameVerdict> {
  const parsed = v.safeParse(Username, raw, { abortEarly: true });
  if (!parsed.success) return refused("M_INVALID_USERNAME", parsed.issues[0].message);
  const username = parsed.output;
  if (`@${username}:${server.server_name}`.length > MAX_USER_ID) {
    return refused("M_INVALID_USERNAME", "The username is too long for this server.");
  }
  const query = { username };
  try {
    let admin: HomeserverResponse | undefined;
    try {
      admin = await connector.client(server).call("GET", "/_synapse/admin/v1/username_available", { admin: true, query });
    } catch (error) {
      // An undecryptable admin token (SECRET_UNREADABLE): the public endpoint can still answer.
      if (!(error instanceof HttpError)) throw error;
    }
    const fromAdmin = admin && verdictOf(admin, username);
    if (fromAdmin) return fromAdmin;
    const open = await connector.publicClient(server).call("GET", "/_matrix/client/v3/register/available", { query });
    const fromPublic = verdictOf(open, username);
    if (fromPublic) return fromPublic;
    if (open.status === 429) {
      const seconds = Math.max(1, Math.ceil((open.retryAfterMs ?? 1000) / 1000));
      throw new HttpError(429, `The homeserver is busy. Please try again in ${seconds} seconds.`, "M_LIMIT_EXCEEDED", {
        "Retry-After": String(seconds),
      });
    }
    if (open.status === 403) throw new HttpError(403, signUpMessage("M_FORBIDDEN") ?? "Registration is closed.", "M_FORBIDDEN");
  } catch (error) {
    if (!(error instanceof HomeserverUnreachable)) throw error;
  }
  throw homeserverUnavailable();
}
