import { useEffect, useState } from "preact/hooks";
import { useDebounced } from "../../../common/use-async.ts";
import { usernameAvailable, validateToken } from "../api/public.ts";
import type { TokenVerdict } from "../api/public-types.ts";

export type Availability =
  | { state: "idle" }
  | { state: "checking" }
  | { state: "available" }
  | { state: "unavailable"; code: string; message: string }
  | { state: "unknown" };

/**
 * Asks the portal whether `name` can be registered once typing pauses (400 ms), cancelling a question that is no
 * longer current. `name` undefined (empty or breaking a local rule) asks nothing. A failed question (rate limit,
 * homeserver away) is `unknown`: the hint never blocks the form.
 */
export function useAvailability(name: string | undefined, serverId: string, enabled: boolean): Availability {
  const debounced = useDebounced(name, 400);
  const [result, setResult] = useState<Availability>({ state: "idle" });
  useEffect(() => {
    if (!enabled || debounced === undefined || debounced !== name) {
      setResult({ state: "idle" });
      return;
    }
    const controller = new AbortController();
    setResult({ state: "checking" });
    usernameAvailable(debounced, serverId, controller.signal).then(
      (verdict) => {
        if (controller.signal.aborted) return;
        setResult(
          verdict.available ? { state: "available" } : { state: "unavailable", code: verdict.errorCode, message: verdict.error },
        );
      },
      () => {
        if (!controller.signal.aborted) setResult({ state: "unknown" });
      },
    );
    return () => controller.abort();
  }, [debounced, name, serverId, enabled]);
  return result;
}

/**
 * A token check's result: `idle` (nothing to check), `checking`, the portal's verdict (`valid`, `exhausted`,
 * `disabled`, `expired`, `unknown`: no such token, `invalid`: not valid, reason unknown) with a valid token's expiry,
 * or `unchecked` when the question failed (rate limit, homeserver away): the sign-up itself checks again.
 */
export type TokenValidity = { state: "idle" | "checking" | "unchecked" } | { state: TokenVerdict; expiresAt: number | null };

const IDLE: TokenValidity = { state: "idle" };
const CHECKING: TokenValidity = { state: "checking" };

/**
 * Checks a registration token without using it (POST /api/register/validate-token) once typing pauses; a token from
 * the invitation link is checked at once.
 */
export function useTokenValidity(token: string, serverId: string, enabled: boolean): TokenValidity {
  const trimmed = token.trim();
  const debounced = useDebounced(trimmed, 500);
  const [result, setResult] = useState<TokenValidity>(enabled && trimmed !== "" ? CHECKING : IDLE);
  // A token from the invitation link is checked without waiting for the debounce.
  const [first, setFirst] = useState(trimmed !== "");
  useEffect(() => {
    const value = first ? trimmed : debounced;
    if (!enabled || value === "") {
      setResult(IDLE);
      return;
    }
    if (value !== trimmed) {
      setResult(CHECKING);
      return;
    }
    setFirst(false);
    const controller = new AbortController();
    setResult(CHECKING);
    validateToken(value, serverId, controller.signal).then(
      (answer) => {
        if (controller.signal.aborted) return;
        // A portal from before the reasons answers `{valid}` only.
        const state = answer.state ?? (answer.valid ? "valid" : "invalid");
        setResult({ state, expiresAt: answer.expiresAt ?? null });
      },
      () => {
        if (!controller.signal.aborted) setResult({ state: "unchecked" });
      },
    );
    return () => controller.abort();
  }, [debounced, trimmed, serverId, enabled]);
  return result;
}
