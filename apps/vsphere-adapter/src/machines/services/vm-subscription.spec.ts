import { retryDelayMs } from './vm-subscription';

describe('retryDelayMs', () => {
  it('doubles from 1 s and stops at 30 s', () => {
    expect([1, 2, 3, 5, 6, 20].map(retryDelayMs)).toEqual([1_000, 2_000, 4_000, 16_000, 30_000, 30_000]);
  });
});
