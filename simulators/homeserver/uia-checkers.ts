import { Codes, StageError } from "./errors.ts";
import type { TokenStore } from "./token-store.ts";
import { LoginType, type StageChecker } from "./uia-session.ts";

/**
 * The registration flows of `_calculate_registration_flows` (synapse/rest/client/register.py) for a server without
 * 3PID, captcha or consent: `[m.login.dummy]`, with `m.login.registration_token` put in front when
 * `registration_requires_token` is on. The dummy stage keeps a one-stage flow from completing by accident.
 */
export function registrationFlows(requiresToken: boolean): string[][] {
  return requiresToken ? [[LoginType.REGISTRATION_TOKEN, LoginType.DUMMY]] : [[LoginType.DUMMY]];
}

/**
 * The enabled checkers (synapse/handlers/ui_auth/checkers.py). Dummy and terms always pass; the token checker is
 * only enabled when registration requires a token (the 3PID-bypass option is not simulated).
 */
export function registrationCheckers(tokens: TokenStore, requiresToken: boolean): Record<string, StageChecker> {
  const checkers: Record<string, StageChecker> = {
    [LoginType.DUMMY]: () => true,
    [LoginType.TERMS]: () => true,
  };
  if (requiresToken) checkers[LoginType.REGISTRATION_TOKEN] = registrationTokenChecker(tokens);
  return checkers;
}

/**
 * `RegistrationTokenAuthChecker.check_auth`. Once a session holds a token, repeating the stage with the same token
 * passes without counting again and another token is `M_INVALID_PARAM`. Otherwise a valid token (runtime
 * semantics, see `TokenStore.isValid`) gets `pending + 1` and is stored in the session; an invalid one is
 * `M_UNAUTHORIZED` "Invalid registration token". The stage result is the token string, which is what lets the
 * session sweep give the pending use back.
 */
function registrationTokenChecker(tokens: TokenStore): StageChecker {
  return (authdict, sessions) => {
    if (!("token" in authdict)) throw new StageError("Missing registration token", Codes.MISSING_PARAM);
    const token = authdict.token;
    if (typeof token !== "string") throw new StageError("Registration token must be a string", Codes.INVALID_PARAM);
    if (!("session" in authdict)) throw new StageError("Missing UIA session", Codes.MISSING_PARAM);
    const session = sessions.get(authdict.session);
    const stored = session.data.registrationToken;
    if (stored) {
      if (token !== stored) throw new StageError("Registration token has changed", Codes.INVALID_PARAM);
      return token;
    }
    if (!tokens.isValid(token)) throw new StageError("Invalid registration token", Codes.UNAUTHORIZED);
    tokens.markPending(token);
    session.data.registrationToken = token;
    return token;
  };
}
