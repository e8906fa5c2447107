import { SNAPSHOT_MESSAGES, snapshotFieldErrors, snapshotRefusal, snapshotWarnings } from './snapshot-rules';

const limits = { maxSnapshots: 3, snapshotMaxAgeHours: 72, memorySnapshots: true };
const running = { runtimeState: 'POWERED_ON' as const, toolsState: 'RUNNING' as const, snapshotCount: 0 };

describe('snapshot rules', () => {
  it('refuses a fourth snapshot under the default limit of three, naming the limit', () => {
    expect(snapshotRefusal({}, { ...running, snapshotCount: 3 }, limits)).toBe(SNAPSHOT_MESSAGES.tooMany(3));
    expect(snapshotRefusal({}, { ...running, snapshotCount: 2 }, limits)).toBeNull();
  });

  it('refuses every snapshot when the offering allows none', () => {
    expect(snapshotRefusal({}, running, { ...limits, maxSnapshots: 0 })).toBe(SNAPSHOT_MESSAGES.snapshotsOff);
  });

  it('takes memory only from a powered-on VM and quiesces only with Tools running', () => {
    const off = { ...running, runtimeState: 'POWERED_OFF' as const };
    expect(snapshotRefusal({ memory: true }, off, limits)).toBe(
      SNAPSHOT_MESSAGES.memoryNeedsPower('POWERED_OFF'),
    );
    expect(snapshotRefusal({ memory: false }, off, limits)).toBeNull();
    const noTools = { ...running, toolsState: 'NOT_RUNNING' as const };
    expect(snapshotRefusal({ quiesce: true }, noTools, limits)).toBe(SNAPSHOT_MESSAGES.quiesceNeedsTools);
    expect(snapshotRefusal({ memory: true, quiesce: true }, running, limits)).toBeNull();
  });

  it('names the memory field when the offering allows no memory snapshots', () => {
    expect(snapshotFieldErrors({ memory: true }, { ...limits, memorySnapshots: false })).toEqual({
      memory: [SNAPSHOT_MESSAGES.memoryNotAllowed],
    });
    expect(snapshotFieldErrors({ memory: false }, { ...limits, memorySnapshots: false })).toEqual({});
  });

  it('warns of a snapshot only once it is older than the maximum age', () => {
    const now = new Date('2026-12-01T12:00:00Z');
    expect(snapshotWarnings(new Date('2026-11-28T12:00:01Z'), 72, now)).toEqual([]);
    expect(snapshotWarnings(new Date('2026-11-28T11:59:59Z'), 72, now)).toEqual([
      SNAPSHOT_MESSAGES.tooOld(72),
    ]);
  });
});
