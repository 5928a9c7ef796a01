import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { asApiError, type ApiError } from '../api/errors';

export interface AsyncState<T> {
  data?: T;
  error?: ApiError;
  loading: boolean;
  reload(): void;
  setData(data: T): void;
}

/** Loads data for a page; reloads when `deps` change, ignoring answers that arrive too late. */
export function useAsync<T>(load: () => Promise<T>, deps: unknown[]): AsyncState<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const run = ++latest.current;
    setState((prev) => ({ data: prev.data, loading: true }));
    load().then(
      (data) => run === latest.current && setState({ data, loading: false }),
      (error) => run === latest.current && setState({ error: asApiError(error), loading: false }),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  const setData = useCallback((data: T) => setState({ data, loading: false }), []);
  return { ...state, reload, setData };
}
