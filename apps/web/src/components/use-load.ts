import { useEffect, useState } from 'react';
import { messageOf } from '../api/client';

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  setData: (update: (current: T | undefined) => T | undefined) => void;
}

/** Loads once per `key` (the initial GET of a page); later changes arrive over the event stream. */
export function useLoad<T>(key: string, load: (signal: AbortSignal) => Promise<T>): Loaded<T> {
  const [data, setData] = useState<T | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    const abort = new AbortController();
    setData(undefined);
    setError(undefined);
    load(abort.signal).then(
      (value) => !abort.signal.aborted && setData(value),
      (failure: unknown) => !abort.signal.aborted && setError(messageOf(failure)),
    );
    return () => abort.abort();
    // `load` is a new closure on every render: the key says when it asks for something else.
  }, [key]);
  return { data, error, setData };
}
