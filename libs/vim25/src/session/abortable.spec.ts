import { abortable } from './abortable';

describe('abortable', () => {
  it('stops one wait without cancelling the shared promise', async () => {
    const controller = new AbortController();
    let resolveShared: (v: string) => void = () => undefined;
    const shared = new Promise<string>((resolve) => (resolveShared = resolve));
    const waiting = abortable(shared, controller.signal, () => new Error('aborted'));
    controller.abort();
    await expect(waiting).rejects.toThrow('aborted');
    resolveShared('done');
    await expect(shared).resolves.toBe('done');
  });

  it('leaves no unhandled rejection behind when the signal was aborted before the wait', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const controller = new AbortController();
      controller.abort();
      let rejectShared: (e: Error) => void = () => undefined;
      const shared = new Promise<string>((_, reject) => (rejectShared = reject));
      await expect(abortable(shared, controller.signal, () => new Error('aborted'))).rejects.toThrow(
        'aborted',
      );
      rejectShared(new Error('ECONNREFUSED'));
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});
