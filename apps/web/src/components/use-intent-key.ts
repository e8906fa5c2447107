import { useEffect, useMemo, useRef } from 'react';
import { newIdempotencyKey } from '../api/idempotency-key';

/**
 * One Idempotency-Key per user intent: the same while the form says the same (`intent`, its values),
 * so a create sent again after no answer finds what the first one made; a new one once the values
 * change, and after a success (`renew`), so the next create with the same values is a new one.
 */
export function useIntentKey(intent: unknown): { key: () => string; renew: () => void } {
  const current = useRef(newIdempotencyKey());
  const values = JSON.stringify(intent);
  useEffect(() => {
    current.current = newIdempotencyKey();
  }, [values]);
  return useMemo(
    () => ({
      key: () => current.current,
      renew: () => {
        current.current = newIdempotencyKey();
      },
    }),
    [],
  );
}
