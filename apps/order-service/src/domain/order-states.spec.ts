import { assertTransition, canTransition, InvalidOrderTransitionError } from './order-states';

describe('order state transitions', () => {
  it.each([
    ['pending-consumer', 'pending-provider'],
    ['pending-consumer', 'executing'],
    ['pending-provider', 'executing'],
    ['executing', 'done'],
    ['executing', 'erred'],
    ['erred', 'executing'],
    ['pending-provider', 'rejected'],
  ] as const)('allows %s → %s', (from, to) => {
    expect(canTransition(from, to)).toBe(true);
  });

  it.each([
    ['done', 'executing'],
    ['done', 'erred'],
    ['canceled', 'executing'],
    ['rejected', 'executing'],
    ['executing', 'rejected'],
    ['executing', 'pending-consumer'],
  ] as const)('refuses %s → %s', (from, to) => {
    expect(canTransition(from, to)).toBe(false);
    expect(() => assertTransition(from, to)).toThrow(InvalidOrderTransitionError);
  });
});
