import { errcodeOf, errorOf, type HomeserverClient, HomeserverUnreachable } from "./homeserver-client.ts";
import { NO_HOMESERVER, unreachableReason } from "./homeserver-errors.ts";
import { homeserverPath } from "./homeserver-path.ts";

/** What `GET /_matrix/client/v3/account/whoami` said about a token. */
export type WhoamiOutcome =
  | { kind: "ok"; userId: string }
  /** The homeserver answered and refused the token (401 `M_UNKNOWN_TOKEN`, 403…). */
  | { kind: "refused"; status: number; errcode: string; message: string }
  /** No usable answer: unreachable, timed out, or not a Matrix answer (5xx, HTML). */
  | { kind: "unreachable"; reason: string };

/**
 * Asks the homeserver whose token this is (`whoami`, spec "Current account information"). The client must be a
 * token client (see HomeserverConnector.tokenClient). An appservice `as_token` answers with its sender.
 */
export async function whoami(client: HomeserverClient): Promise<WhoamiOutcome> {
  try {
    const response = await client.call("GET", "/_matrix/client/v3/account/whoami", { admin: true });
    if (response.status === 200 && typeof response.body.user_id === "string")
      return { kind: "ok", userId: response.body.user_id };
    const errcode = errcodeOf(response);
    if (response.status >= 400 && response.status < 500 && errcode !== undefined) {
      return {
        kind: "refused",
        status: response.status,
        errcode,
        message: errorOf(response) ?? `HTTP ${response.status}`,
      };
    }
    // A 5xx or a non-Matrix answer: which one it was stays out of admin answers (homeserver-errors.ts).
    return { kind: "unreachable", reason: NO_HOMESERVER };
  } catch (error) {
    if (error instanceof HomeserverUnreachable) return { kind: "unreachable", reason: unreachableReason(error) };
    throw error;
  }
}

/** The outcome of one profile field write: `ok`, or why not. */
export type ProfileFieldOutcome = "ok" | `failed: ${string}`;

/**
 * Sets a profile field (`displayname` or `avatar_url`) of `userId` with the client's token
 * (`PUT /_matrix/client/v3/profile/{userId}/{field}`); an empty string clears it. Never throws for a refusal.
 */
export async function setProfileField(
  client: HomeserverClient,
  userId: string,
  field: "displayname" | "avatar_url",
  value: string,
): Promise<ProfileFieldOutcome> {
  try {
    const response = await client.call("PUT", homeserverPath`/_matrix/client/v3/profile/${userId}/${field}`, {
      admin: true,
      body: { [field]: value },
    });
    if (response.status === 200) return "ok";
    return `failed: ${errcodeOf(response) ?? NO_HOMESERVER}`;
  } catch (error) {
    if (error instanceof HomeserverUnreachable) return `failed: ${unreachableReason(error)}`;
    throw error;
  }
}
