import { useCallback, useRef, useState } from 'react';

/**
 * Runs an action only while no other run of it is in flight, and says when one is: a second click
 * (a double click, Enter pressed twice) before the first answer arrives sends nothing. The guard is
 * a ref, not state: two events in one frame both see the state of the render before them.
 */
export function useOnceAtATime<A extends unknown[]>(
  action: (...args: A) => Promise<void>,
): { run: (...args: A) => Promise<void>; pending: boolean } {
  const inFlight = useRef(false);
  const [pending, setPending] = useState(false);
  const latest = useRef(action);
  latest.current = action;
  const run = useCallback(async (...args: A) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setPending(true);
    try {
      await latest.current(...args);
    } finally {
      inFlight.current = false;
      setPending(false);
    }
  }, []);
  return { run, pending };
}
