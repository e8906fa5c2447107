import { bytesToMb } from './datastore-size';

describe('bytesToMb', () => {
  it('divides by 2^20 and rounds down', () => {
    expect(bytesToMb(0)).toBe(0);
    expect(bytesToMb(1024 * 1024 * 1.5)).toBe(1);
    expect(bytesToMb(5 * 2 ** 40)).toBe(5 * 2 ** 20);
  });

  it('keeps sizes beyond 32 bits', () => {
    expect(bytesToMb(2 ** 52)).toBe(2 ** 32);
  });

  it('reads -1 as 0', () => {
    expect(bytesToMb(-1)).toBe(0);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, -2, 2 ** 64])('finds %p absurd', (value) => {
    expect(bytesToMb(value)).toBeUndefined();
  });
});
