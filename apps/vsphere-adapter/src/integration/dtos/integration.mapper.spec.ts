import { syncStateOf, VERIFY_SSL_OFF_WARNING, warningsOf } from './integration.mapper';

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

describe('the view of the connection', () => {
  it('warns while verify_ssl is off, and only then', () => {
    expect(warningsOf({ verifySsl: true })).toEqual([]);
    expect(warningsOf({ verifySsl: false })).toEqual([VERIFY_SSL_OFF_WARNING]);
  });
});
