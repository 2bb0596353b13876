import { useCallback, useEffect, useRef, useState } from "preact/hooks";

export interface AsyncState<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  /** Loads again; `quiet` keeps showing the current data meanwhile (no spinner). */
  reload(quiet?: boolean): void;
  /**
   * Puts in a value from elsewhere (a save's answer, a live push). It supersedes a load still in flight: that load
   * was asked before this value existed, and its answer, arriving later, would overwrite newer data with older.
   */
  setData(data: T | ((previous: T | undefined) => T)): void;
}

/**
 * Loads `load()` when `deps` change, aborting the previous request; errors are kept for display, never swallowed.
 * Shared by the web UIs.
 */
export function useAsync<T>(load: (signal: AbortSignal) => Promise<T>, deps: unknown[]): AsyncState<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<Error | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const quietRef = useRef(false);
  const loadRef = useRef(load);
  loadRef.current = load;
  const inFlight = useRef<AbortController | undefined>(undefined);
  // The newest value, for `setData(previous => …)` between renders (a burst of live pushes in one task).
  const latest = useRef<T | undefined>(undefined);

  useEffect(() => {
    const controller = new AbortController();
    inFlight.current = controller;
    if (!quietRef.current) setLoading(true);
    quietRef.current = false;
    loadRef.current(controller.signal).then(
      (value) => {
        if (controller.signal.aborted) return;
        inFlight.current = undefined;
        latest.current = value;
        setData(() => value);
        setError(undefined);
        setLoading(false);
      },
      (failure: unknown) => {
        if (controller.signal.aborted) return;
        inFlight.current = undefined;
        setError(failure instanceof Error ? failure : new Error(String(failure)));
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [...deps, tick]);

  const reload = useCallback((quiet = false) => {
    quietRef.current = quiet;
    setTick((n) => n + 1);
  }, []);
  const put = useCallback((next: T | ((previous: T | undefined) => T)) => {
    const value = typeof next === "function" ? (next as (previous: T | undefined) => T)(latest.current) : next;
    latest.current = value;
    // An update with nothing to apply to (`undefined`) leaves a first load alone: it is still what fills the page.
    if (inFlight.current && value !== undefined) {
      inFlight.current.abort();
      inFlight.current = undefined;
      setLoading(false);
      setError(undefined);
    }
    setData(() => value);
  }, []);
  return { data, error, loading, reload, setData: put };
}

/** `value`, `ms` after it stopped changing. */
export function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** Re-runs `tick` every `ms` while the page is visible (`null` pauses it). */
export function useInterval(tick: () => void, ms: number | null): void {
  const ref = useRef(tick);
  ref.current = tick;
  useEffect(() => {
    if (ms === null) return;
    const timer = setInterval(() => {
      if (!document.hidden) ref.current();
    }, ms);
    return () => clearInterval(timer);
  }, [ms]);
}
