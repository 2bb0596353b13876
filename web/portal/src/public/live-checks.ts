import { useEffect, useState } from "preact/hooks";
import { useDebounced } from "../../../common/use-async.ts";
import { usernameAvailable, validateToken } from "../api/public.ts";

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

export type TokenValidity = "idle" | "checking" | "valid" | "invalid" | "unknown";

/**
 * Checks a registration token without using it (POST /api/register/validate-token) once typing pauses; a token from
 * the invitation link is checked at once.
 */
export function useTokenValidity(token: string, serverId: string, enabled: boolean): TokenValidity {
  const trimmed = token.trim();
  const debounced = useDebounced(trimmed, 500);
  const [result, setResult] = useState<TokenValidity>("idle");
  // A token from the invitation link is checked without waiting for the debounce.
  const [first, setFirst] = useState(trimmed !== "");
  useEffect(() => {
    const value = first ? trimmed : debounced;
    if (!enabled || value === "") {
      setResult("idle");
      return;
    }
    if (value !== trimmed) {
      setResult("checking");
      return;
    }
    setFirst(false);
    const controller = new AbortController();
    setResult("checking");
    validateToken(value, serverId, controller.signal).then(
      (answer) => {
        if (!controller.signal.aborted) setResult(answer.valid ? "valid" : "invalid");
      },
      () => {
        if (!controller.signal.aborted) setResult("unknown");
      },
    );
    return () => controller.abort();
  }, [debounced, trimmed, serverId, enabled]);
  return result;
}
