import { BusyGuard } from './busy-guard';

describe('BusyGuard', () => {
  it('refuses a second run on the same key while the first runs, and allows it after', async () => {
    const guard = new BusyGuard();
    let release!: () => void;
    const first = guard.tryRun('vm', () => new Promise<string>((r) => (release = () => r('first'))));
    await expect(guard.tryRun('vm', () => Promise.resolve('second'))).resolves.toBeNull();
    await expect(guard.tryRun('other', () => Promise.resolve('other'))).resolves.toEqual({ value: 'other' });
    release();
    await expect(first).resolves.toEqual({ value: 'first' });
    await expect(guard.tryRun('vm', () => Promise.resolve('third'))).resolves.toEqual({ value: 'third' });
  });

  it('frees the key when the work fails', async () => {
    const guard = new BusyGuard();
    await expect(guard.tryRun('vm', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(guard.tryRun('vm', () => Promise.resolve(1))).resolves.toEqual({ value: 1 });
  });
});
