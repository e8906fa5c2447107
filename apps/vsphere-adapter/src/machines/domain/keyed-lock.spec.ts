import { KeyedLock } from './keyed-lock';

describe('KeyedLock', () => {
  it('runs work of one key one after the other, and of different keys side by side', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const step = (name: string, ms: number) => async () => {
      log.push(`${name}+`);
      await new Promise((r) => setTimeout(r, ms));
      log.push(`${name}-`);
    };
    await Promise.all([
      lock.run('a', step('a1', 30)),
      lock.run('a', step('a2', 1)),
      lock.run('b', step('b1', 1)),
    ]);
    expect(log.indexOf('a2+')).toBeGreaterThan(log.indexOf('a1-'));
    expect(log.indexOf('b1-')).toBeLessThan(log.indexOf('a1-'));
  });

  it('goes on after a failure', async () => {
    const lock = new KeyedLock();
    await expect(lock.run('a', () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await expect(lock.run('a', () => Promise.resolve(1))).resolves.toBe(1);
  });
});
