/**
 * Lets one caller stop waiting for a shared promise (e.g. a single-flight login) without
 * cancelling it for the others. Pure; no I/O.
 */
export function abortable<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  onAbort: () => Error,
): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) {
    // The shared work goes on for the others; when nobody else waits for it, its failure must not
    // surface as an unhandled rejection.
    promise.catch(() => undefined);
    return Promise.reject(onAbort());
  }
  return new Promise<T>((resolve, reject) => {
    const abort = (): void => reject(onAbort());
    signal.addEventListener('abort', abort, { once: true });
    void promise.finally(() => signal.removeEventListener('abort', abort)).then(resolve, reject);
  });
}
