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

/**
 * The same verdict for a token held by MAS (issue 23), by MAS's own rule (`UserRegistrationToken::is_valid`): revoked
 * is **disabled** (revoking is how a MAS token is switched off, and MAS can undo it); expired once `now >= expires_at`
 * (MAS counts the expiry instant as expired, Synapse as valid); used up once `times_used >= usage_limit` (a limit of 0,
 * which MAS accepts, is never usable). MAS has no pending uses: a use counts when the account is created.
 */
export function masTokenState(
  token: { revoked_at: number | null; expiry_time: number | null; uses_allowed: number | null; completed: number },
  now: number,
): TokenState {
  if (token.revoked_at !== null) return "disabled";
  if (token.expiry_time !== null && now >= token.expiry_time) return "expired";
  if (token.uses_allowed !== null && token.completed >= token.uses_allowed) return "exhausted";
  return "valid";
}
