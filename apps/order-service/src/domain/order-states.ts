import type { OrderState } from '@app/contracts';

/**
 * Waldur's order transitions (marketplace OrderStates and its django-fsm transitions): review moves
 * forward, erred may be retried, and the terminal states done, canceled and rejected are final.
 */
const ALLOWED: Record<OrderState, readonly OrderState[]> = {
  'pending-consumer': ['pending-provider', 'executing', 'rejected', 'canceled', 'erred'],
  'pending-provider': ['executing', 'rejected', 'canceled', 'erred'],
  executing: ['done', 'erred', 'canceled'],
  erred: ['executing', 'canceled'],
  done: [],
  canceled: [],
  rejected: [],
};

export function canTransition(from: OrderState, to: OrderState): boolean {
  return ALLOWED[from].includes(to);
}

export class InvalidOrderTransitionError extends Error {
  constructor(
    readonly from: OrderState,
    readonly to: OrderState,
  ) {
    super(`Order cannot move from ${from} to ${to}.`);
    this.name = 'InvalidOrderTransitionError';
  }
}

export function assertTransition(from: OrderState, to: OrderState): void {
  if (!canTransition(from, to)) throw new InvalidOrderTransitionError(from, to);
}
