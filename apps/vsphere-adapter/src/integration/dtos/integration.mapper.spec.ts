import { syncStateOf } from './integration.mapper';

describe('syncStateOf', () => {
  const at = new Date();
  it('is SYNCING while a run holds the offering, whether or not another is requested', () => {
    expect(syncStateOf({ syncRunningSince: at, syncRequestedAt: null })).toBe('SYNCING');
    expect(syncStateOf({ syncRunningSince: at, syncRequestedAt: at })).toBe('SYNCING');
  });

  it('is SCHEDULED while a request waits, IDLE otherwise', () => {
    expect(syncStateOf({ syncRunningSince: null, syncRequestedAt: at })).toBe('SCHEDULED');
    expect(syncStateOf({ syncRunningSince: null, syncRequestedAt: null })).toBe('IDLE');
  });
});
