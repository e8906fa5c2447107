import { outcomeSince, type SyncTimes } from './sync-outcome';

const SAVED = '2026-01-01T10:00:05.000Z';
const view = (overrides: Partial<SyncTimes>): SyncTimes => ({
  state: 'OK',
  error_message: '',
  last_sync_started: null,
  last_sync_finished: null,
  ...overrides,
});

describe('outcomeSince', () => {
  it('is undefined before any synchronisation has finished', () => {
    expect(outcomeSince(view({ state: 'CREATING' }), SAVED)).toBeUndefined();
    expect(outcomeSince(view({ last_sync_started: '2026-01-01T10:00:06.000Z' }), SAVED)).toBeUndefined();
  });

  it('ignores a run that started before the save, even when it finished after it', () => {
    const before = view({
      last_sync_started: '2026-01-01T10:00:04.000Z',
      last_sync_finished: '2026-01-01T10:00:07.000Z',
    });
    expect(outcomeSince(before, SAVED)).toBeUndefined();
  });

  it('waits while a run that started after the save is still under way', () => {
    const running = view({
      last_sync_started: '2026-01-01T10:00:06.000Z',
      last_sync_finished: '2026-01-01T10:00:04.000Z',
    });
    expect(outcomeSince(running, SAVED)).toBeUndefined();
  });

  it('answers OK, or the error, of a run that started at or after the save and finished', () => {
    const times = { last_sync_started: SAVED, last_sync_finished: '2026-01-01T10:00:06.000Z' };
    expect(outcomeSince(view(times), SAVED)).toEqual({ ok: true });
    expect(outcomeSince(view({ ...times, state: 'ERRED', error_message: 'Login failure' }), SAVED)).toEqual({
      ok: false,
      message: 'Login failure',
    });
    expect(outcomeSince(view({ ...times, state: 'ERRED' }), SAVED)).toEqual({ ok: false, message: 'ERRED' });
  });
});
