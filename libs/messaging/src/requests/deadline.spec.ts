import { assertBeforeDeadline, DeadlinePassedError, msLeft } from './deadline';

describe('deadlines', () => {
  it('counts what is left, less a reserve, and nothing without a deadline', () => {
    expect(msLeft(10_000, 100, 4_000)).toBe(5_900);
    expect(msLeft(10_000, 0, 12_000)).toBe(-2_000);
    expect(msLeft(undefined, 100, 4_000)).toBeUndefined();
  });

  it('lets work commit before the deadline only', () => {
    expect(() => assertBeforeDeadline(10_000, 9_999)).not.toThrow();
    expect(() => assertBeforeDeadline(undefined, 99_999)).not.toThrow();
    expect(() => assertBeforeDeadline(10_000, 10_000)).toThrow(DeadlinePassedError);
  });
});
