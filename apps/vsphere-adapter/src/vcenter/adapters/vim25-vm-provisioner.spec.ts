import type { SnapshotTree, VmInfo } from '@app/vim25';
import {
  endsWithLine,
  flattenSnapshots,
  toolsInstalledOf,
  toolsStateOf,
  toRemoteVm,
} from './vim25-vm-provisioner';

describe('endsWithLine', () => {
  const mark = 'marketplace-order:1';

  it('finds the mark on the last line only', () => {
    expect(endsWithLine(`web\n${mark}\n`, mark)).toBe(true);
    expect(endsWithLine(mark, mark)).toBe(true);
    expect(endsWithLine(`${mark}\nmarketplace-order:2`, mark)).toBe(false);
    expect(endsWithLine(`see ${mark}`, mark)).toBe(false);
  });
});

describe('toRemoteVm', () => {
  it("maps power state, hardware, disks (MiB), adapters' networks and Tools", () => {
    const info = {
      ref: { type: 'VirtualMachine', value: 'vm-7' },
      name: 'web',
      powerState: 'poweredOn',
      numCPU: 2,
      numCoresPerSocket: 1,
      memoryMB: 2048,
      template: false,
      uuid: 'bios',
      instanceUuid: 'inst',
      toolsRunningStatus: 'guestToolsRunning',
      toolsInstallType: 'guestToolsTypeOpenVMTools',
      devices: [
        { kind: 'disk', key: 2000, type: 'VirtualDisk', capacityInKB: 10 * 1024 * 1024, raw: {} },
        {
          kind: 'nic',
          key: 4000,
          type: 'VirtualVmxnet3',
          macAddress: '00:50:56:00:00:01',
          connected: true,
          backing: { kind: 'distributed', switchUuid: 's', portgroupKey: 'dvportgroup-9' },
          raw: {},
        },
      ],
    } as unknown as VmInfo;
    expect(toRemoteVm(info, 'a')).toEqual({
      moref: 'vm-7',
      uuid: 'inst',
      name: 'web',
      annotation: 'a',
      runtimeState: 'POWERED_ON',
      cpu: 2,
      coresPerSocket: 1,
      ram: 2048,
      disks: [{ key: 2000, sizeMiB: 10240, datastore: undefined, label: undefined }],
      nics: [{ key: 4000, macAddress: '00:50:56:00:00:01', network: 'dvportgroup-9', connected: true }],
      toolsState: 'RUNNING',
      toolsInstalled: true,
      snapshots: [],
      currentSnapshot: null,
      consolidationNeeded: false,
    });
  });
});

describe('Tools as Waldur shows them', () => {
  it('maps guest.toolsRunningStatus to ToolsStates, an unknown or absent status to NOT_RUNNING', () => {
    expect(toolsStateOf('guestToolsRunning')).toBe('RUNNING');
    expect(toolsStateOf('guestToolsExecutingScripts')).toBe('STARTING');
    expect(toolsStateOf('guestToolsNotRunning')).toBe('NOT_RUNNING');
    expect(toolsStateOf(undefined)).toBe('NOT_RUNNING');
    expect(toolsStateOf('somethingNew')).toBe('NOT_RUNNING');
  });

  it('counts Tools installed unless the install type is absent, empty or guestToolsTypeUnknown', () => {
    expect(toolsInstalledOf('guestToolsTypeOpenVMTools')).toBe(true);
    expect(toolsInstalledOf('guestToolsTypeMSI')).toBe(true);
    expect(toolsInstalledOf('guestToolsTypeUnknown')).toBe(false);
    expect(toolsInstalledOf('')).toBe(false);
    expect(toolsInstalledOf(undefined)).toBe(false);
  });
});

describe('flattenSnapshots', () => {
  const tree = (
    value: string,
    state: 'poweredOn' | 'poweredOff',
    children: SnapshotTree[] = [],
  ): SnapshotTree => ({
    snapshot: { type: 'VirtualMachineSnapshot', value },
    name: value,
    description: '',
    id: 0,
    createTime: '2026-12-01T10:00:00Z',
    state,
    quiesced: false,
    children,
  });

  it("lists vCenter's tree parents first, each with its parent, memory from the snapshot's power state", () => {
    const flat = flattenSnapshots(
      [
        tree('s1', 'poweredOn', [
          tree('s2', 'poweredOff', [tree('s3', 'poweredOff')]),
          tree('s4', 'poweredOff'),
        ]),
      ],
      null,
    );
    expect(flat.map((s) => [s.moref, s.parent, s.memory])).toEqual([
      ['s1', null, true],
      ['s2', 's1', false],
      ['s3', 's2', false],
      ['s4', 's1', false],
    ]);
  });
});
