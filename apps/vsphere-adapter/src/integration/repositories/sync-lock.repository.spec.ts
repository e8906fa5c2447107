import { syncLockKey } from './sync-lock.repository';

describe('syncLockKey', () => {
  it('is a positive 64-bit key with the adapter prefix, stable per offering and different between them', () => {
    const a = syncLockKey('8c7a9c55-3a3e-4d39-9a52-0c1f0d7d2f10');
    expect(a).toBe(syncLockKey('8c7a9c55-3a3e-4d39-9a52-0c1f0d7d2f10'));
    expect(a).not.toBe(syncLockKey('9c7a9c55-3a3e-4d39-9a52-0c1f0d7d2f10'));
    expect(BigInt(a) >> 48n).toBe(0x5653n);
    expect(BigInt(a) < 2n ** 63n).toBe(true);
  });

  it('keeps the VM pull lock of an offering apart from its synchronisation lock', () => {
    const offering = '8c7a9c55-3a3e-4d39-9a52-0c1f0d7d2f10';
    expect(syncLockKey(offering, 'vmPull')).not.toBe(syncLockKey(offering));
    expect(BigInt(syncLockKey(offering, 'vmPull')) >> 48n).toBe(0x5650n);
  });
});
