import { useCallback, useEffect, useRef, useState } from "preact/hooks";

export interface AsyncState<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  /** Loads again; `quiet` keeps showing the current data meanwhile (no spinner). */
  reload(quiet?: boolean): void;
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

  useEffect(() => {
    const controller = new AbortController();
    if (!quietRef.current) setLoading(true);
    quietRef.current = false;
    loadRef.current(controller.signal).then(
      (value) => {
        if (controller.signal.aborted) return;
        setData(() => value);
        setError(undefined);
        setLoading(false);
      },
      (failure: unknown) => {
        if (controller.signal.aborted) return;
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
  return { data, error, loading, reload, setData: setData as AsyncState<T>["setData"] };
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
