/**
 * The gateway's deadline for a request (epoch ms, `meta.deadline`): by then it has stopped waiting
 * and answered 503. Work that would commit after it is not committed (the unit of work checks it
 * before COMMIT), so that 503 always means "not done" (or, with an Idempotency-Key, a retry finds
 * what was done). One arithmetic for every service that answers the gateway.
 */
export const DEADLINE_PASSED =
  'The service could not finish before the gateway stopped waiting; nothing was stored.';

/** What a transaction needs after a wait on another service's answer: kept out of that wait. */
export const STORE_RESERVE_MS = 100;

export class DeadlinePassedError extends Error {
  constructor() {
    super(DEADLINE_PASSED);
    this.name = 'DeadlinePassedError';
  }
}

/** Milliseconds left before `deadline`, less `reserveMs`; undefined without a deadline. Pure. */
export function msLeft(deadline: number | undefined, reserveMs = 0, now = Date.now()): number | undefined {
  return deadline === undefined ? undefined : deadline - reserveMs - now;
}

/** Throws when `deadline` has passed: the last check before a commit. */
export function assertBeforeDeadline(deadline: number | undefined, now = Date.now()): void {
  if (deadline !== undefined && now >= deadline) throw new DeadlinePassedError();
}
