import type { HomeserverToken } from "../homeserver/registration-tokens-api.ts";

/** Whether a token can be used for a sign-up now, as the portal sees it. */
export type TokenState = "valid" | "disabled" | "expired" | "exhausted";

/**
 * The portal's validity rule. Synapse's runtime check (`registration_token_is_valid`) plus one deliberate
 * difference: `uses_allowed: 0` means **disabled** here (Synapse treats 0 as unlimited at registration time, yet
 * its docs and tools use 0 as the off switch), and so does the portal's own disabled flag. Otherwise as Synapse:
 * expired when `expiry_time` is set and before now, exhausted when `pending + completed >= uses_allowed`
 * (pending sign-ups hold a use).
 */
export function tokenState(token: HomeserverToken, disabledLocally: boolean, now: number): TokenState {
  if (disabledLocally || token.uses_allowed === 0) return "disabled";
  if (token.expiry_time && token.expiry_time < now) return "expired";
  if (token.uses_allowed && token.pending + token.completed >= token.uses_allowed) return "exhausted";
  return "valid";
}
