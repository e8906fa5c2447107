import {
  checkHardware,
  HARDWARE_MESSAGES as M,
  positiveOr,
  VSPHERE_MAXIMUMS,
  VSPHERE_MESSAGES,
} from './hardware-rules';

const none = { maxCpu: null, maxCoresPerSocket: null, maxRam: null, maxDisk: null, maxDiskTotal: null };
const hw = { cpu: 2, coresPerSocket: 1, ram: 2048, disk: 10240 };

describe('checkHardware', () => {
  it('accepts hardware within the maximums', () => {
    expect(
      checkHardware(
        hw,
        { maxCpu: 2, maxCoresPerSocket: 1, maxRam: 2048, maxDisk: 10240, maxDiskTotal: 10240 },
        true,
      ),
    ).toEqual({});
  });

  it("names each broken rule under its field with Waldur's message", () => {
    const max = { maxCpu: 4, maxCoresPerSocket: 2, maxRam: 4096, maxDisk: 1000, maxDiskTotal: null };
    expect(checkHardware({ cpu: 6, coresPerSocket: 4, ram: 8192, disk: 2000 }, max, true)).toEqual({
      cpu: [M.cpuLimit, M.coresMultiple],
      cores_per_socket: [M.coresPerSocketLimit],
      ram: [M.ramLimit],
      disk: [M.diskLimit],
    });
  });

  it("refuses more than vSphere 8's maximums even where the offering sets none, and takes them exactly", () => {
    const most = { cpu: 768, coresPerSocket: 256, ram: VSPHERE_MAXIMUMS.ramMiB, disk: 10240 };
    expect(checkHardware(most, none, true)).toEqual({});
    expect(checkHardware({ ...most, cpu: 769, coresPerSocket: 1 }, none, true)).toEqual({
      cpu: [VSPHERE_MESSAGES.cpu],
    });
    expect(checkHardware({ ...most, cpu: 512, coresPerSocket: 512 }, none, true)).toEqual({
      cores_per_socket: [VSPHERE_MESSAGES.coresPerSocket],
    });
    expect(checkHardware({ ...most, ram: VSPHERE_MAXIMUMS.ramMiB + 1 }, none, true)).toEqual({
      ram: [VSPHERE_MESSAGES.ram],
    });
  });

  it('refuses less than 1024 MiB of RAM', () => {
    expect(checkHardware({ ...hw, ram: 1023 }, none, true)).toEqual({ ram: [M.ramTooSmall] });
  });

  it('checks the disk against the total as well, and not at all on update', () => {
    const max = { ...none, maxDiskTotal: 5000 };
    expect(checkHardware(hw, max, true)).toEqual({ disk: [M.diskLimit] });
    expect(checkHardware(hw, max, false)).toEqual({});
  });
});

describe('positiveOr', () => {
  it('takes the default when unset and refuses zero or fractions', () => {
    expect(positiveOr(undefined, 3)).toEqual({ ok: true, value: 3 });
    expect(positiveOr(0, 3)).toEqual({ ok: false, message: M.atLeastOne });
    expect(positiveOr(1.5, 3)).toEqual({ ok: false, message: M.wholeNumber });
  });
});
