import { DEVICE_MESSAGES as M, extendRefusal, newDiskRefusal, newPortRefusal } from './device-rules';

const none = { maxDisk: null, maxDiskTotal: null };

describe('newDiskRefusal', () => {
  it('accepts 1024 MiB and more without limits', () => {
    expect(newDiskRefusal(1024, 50_000, none)).toBeNull();
  });

  it('refuses less than 1024 MiB as too small', () => {
    expect(newDiskRefusal(1023, 0, none)).toBe(M.diskTooSmall);
  });

  it('refuses a disk over max_disk, and accepts one equal to it', () => {
    expect(newDiskRefusal(4097, 0, { maxDisk: 4096, maxDiskTotal: null })).toBe(M.diskLimit);
    expect(newDiskRefusal(4096, 0, { maxDisk: 4096, maxDiskTotal: null })).toBeNull();
  });

  it('refuses a disk the quota left by max_disk_total cannot hold, and accepts one that just fits', () => {
    const max = { maxDisk: null, maxDiskTotal: 10_240 };
    expect(newDiskRefusal(2049, 8192, max)).toBe(M.quotaReached);
    expect(newDiskRefusal(2048, 8192, max)).toBeNull();
  });
});

describe('extendRefusal', () => {
  it('refuses a size that is not larger, naming the current size', () => {
    expect(extendRefusal(2048, 2048, 2048, none)).toBe('Disk size should be greater than 2048');
    expect(extendRefusal(1024, 2048, 2048, none)).toBe('Disk size should be greater than 2048');
  });

  it('refuses a size over max_disk', () => {
    expect(extendRefusal(5000, 2048, 2048, { maxDisk: 4096, maxDiskTotal: null })).toBe(M.diskLimit);
  });

  it('counts the disk itself back into the quota', () => {
    // 10 GiB quota; the VM has this 2 GiB disk and another of 4 GiB: this one may grow to 6 GiB.
    const max = { maxDisk: null, maxDiskTotal: 10_240 };
    expect(extendRefusal(6144, 2048, 6144, max)).toBeNull();
    expect(extendRefusal(6145, 2048, 6144, max)).toBe(M.quotaReached);
  });
});

describe('newPortRefusal', () => {
  it('allows the tenth adapter and refuses the eleventh', () => {
    expect(newPortRefusal(9)).toBeNull();
    expect(newPortRefusal(10)).toBe(M.tooManyPorts);
  });
});
