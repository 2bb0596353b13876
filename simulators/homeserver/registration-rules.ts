import { Codes, MatrixError } from "./errors.ts";
import type { PasswordPolicy } from "./options.ts";
import type { HomeserverState } from "./state.ts";

/** `MAX_USERID_LENGTH` (synapse/handlers/register.py): the whole `@localpart:server` ID. */
export const MAX_USERID_LENGTH = 255;

/** `mxid_localpart_allowed_characters` (synapse/types): `a-z 0-9 . _ = - / +`, lower case only. */
const ALLOWED_LOCALPART = /^[a-z0-9._=\-/+]*$/;

const invalidUsername = (message: string) => new MatrixError(400, message, Codes.INVALID_USERNAME);

/**
 * `RegistrationHandler.check_username` (synapse/handlers/register.py), in Synapse's order: characters, empty,
 * leading `_`, (session already registered this ID → fine, another ID → 400), appservice namespace (`M_EXCLUSIVE`),
 * length of the full ID, taken (case-insensitively, `M_USER_IN_USE`), all digits (reserved for guests).
 * The name is checked as given: `/register` lower-cases it first, `/register/available` does not.
 */
export function checkUsername(state: HomeserverState, localpart: string, assignedUserId?: string): void {
  if (!ALLOWED_LOCALPART.test(localpart)) {
    throw invalidUsername("User ID can only contain characters a-z, 0-9, or '=_-./+'");
  }
  if (localpart === "") throw invalidUsername("User ID cannot be empty");
  if (localpart.startsWith("_")) throw invalidUsername("User ID may not begin with _");
  const userId = state.userId(localpart);
  if (assignedUserId) {
    if (userId === assignedUserId) return;
    throw new MatrixError(400, "A different user ID has already been registered for this session");
  }
  if (state.isExclusive(userId)) {
    throw new MatrixError(400, "This user ID is reserved by an application service.", Codes.EXCLUSIVE);
  }
  if ([...userId].length > MAX_USERID_LENGTH) {
    throw invalidUsername(`User ID may not be longer than ${MAX_USERID_LENGTH} characters`);
  }
  if (state.findUser(userId)) throw new MatrixError(400, "User ID already taken.", Codes.USER_IN_USE);
  if (/^\d+$/.test(localpart)) throw invalidUsername("Numeric user IDs are reserved for guest users.");
}

/**
 * `PasswordPolicyHandler.validate_password` (synapse/handlers/password_policy.py): each rule has its own errcode,
 * checked in this order. Synapse uses these `M_PASSWORD_*` codes, not the spec's generic `M_WEAK_PASSWORD`.
 */
export function validatePassword(policy: Required<PasswordPolicy>, password: string): void {
  if (!policy.enabled) return;
  const refuse = (message: string, errcode: string) => new MatrixError(400, message, errcode);
  if ([...password].length < policy.minimumLength) {
    throw refuse(`The password must be at least ${policy.minimumLength} characters long`, "M_PASSWORD_TOO_SHORT");
  }
  if (policy.requireDigit && !/[0-9]/.test(password)) {
    throw refuse("The password must include at least one digit", "M_PASSWORD_NO_DIGIT");
  }
  if (policy.requireSymbol && !/[^a-zA-Z0-9]/.test(password)) {
    throw refuse("The password must include at least one symbol", "M_PASSWORD_NO_SYMBOL");
  }
  if (policy.requireUppercase && !/[A-Z]/.test(password)) {
    throw refuse("The password must include at least one uppercase letter", "M_PASSWORD_NO_UPPERCASE");
  }
  if (policy.requireLowercase && !/[a-z]/.test(password)) {
    throw refuse("The password must include at least one lowercase letter", "M_PASSWORD_NO_LOWERCASE");
  }
}
