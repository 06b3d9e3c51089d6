/** Loads data for a view: the value, the error, and a reload that keeps the old value meanwhile. */
import { useCallback, useEffect, useState } from 'preact/hooks';

export interface Loaded<T> {
  value: T | undefined;
  error: string | undefined;
  loading: boolean;
  reload: () => void;
}

export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [value, setValue] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setLoading(true);
    load().then(
      (result) => current && (setValue(result), setError(undefined), setLoading(false)),
      (failure: Error) => current && (setError(failure.message), setLoading(false)),
    );
    return () => {
      current = false;
    };
  }, [...deps, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { value, error, loading, reload };
}
