import type { RemoteVm } from '../../vcenter/ports/vm-provisioner.port';
import { VM_GONE, vmDrifted, type RecordedVm } from './vm-drift';

const networks = new Map([
  ['dvportgroup-11', 'net-a'],
  ['network-7', 'net-b'],
]);

const remote = (over: Partial<RemoteVm> = {}): RemoteVm => ({
  moref: 'vm-42',
  uuid: 'b-1',
  name: 'web-1',
  annotation: '',
  runtimeState: 'POWERED_ON',
  cpu: 2,
  coresPerSocket: 1,
  ram: 2048,
  disks: [
    { key: 2000, sizeMiB: 10240, datastore: 'datastore-1', label: 'Hard disk 1' },
    { key: 2001, sizeMiB: 2048, datastore: 'datastore-1', label: 'Hard disk 2' },
  ],
  nics: [
    {
      key: 4000,
      macAddress: '00:50:56:aa:bb:cc',
      network: 'dvportgroup-11',
      connected: true,
      label: 'Network adapter 1',
    },
  ],
  toolsState: 'RUNNING',
  toolsInstalled: true,
  ...over,
});

const recorded = (over: Partial<RecordedVm> = {}): RecordedVm => ({
  rowUuid: 'r-1',
  backendUuid: 'b-1',
  state: 'OK',
  errorMessage: '',
  moref: 'vm-42',
  name: 'web-1',
  runtimeState: 'POWERED_ON',
  cpu: 2,
  coresPerSocket: 1,
  ram: 2048,
  disk: 12288,
  toolsState: 'RUNNING',
  toolsInstalled: true,
  disks: [
    { uuid: 'd-1', key: 2000, size: 10240, datastore: 'datastore-1', label: 'Hard disk 1' },
    { uuid: 'd-2', key: 2001, size: 2048, datastore: 'datastore-1', label: 'Hard disk 2' },
  ],
  ports: [
    {
      uuid: 'p-1',
      key: 4000,
      mac: '00:50:56:aa:bb:cc',
      network: 'dvportgroup-11',
      networkUuid: 'net-a',
      connected: true,
    },
  ],
  ...over,
});

const disks = recorded().disks;
const port = recorded().ports[0];
const nic = remote().nics[0];

describe('vmDrifted', () => {
  it('finds nothing when the VM, its disks and its adapters are as recorded', () => {
    expect(vmDrifted(recorded(), remote(), networks)).toBe(false);
  });

  it('ignores device order: devices are matched by key', () => {
    const reversed = remote({ disks: [...remote().disks].reverse() });
    expect(vmDrifted(recorded(), reversed, networks)).toBe(false);
  });

  it('never counts keyless rows (being created, or ERRED because vCenter never made them)', () => {
    const creating = { uuid: 'd-3', key: null, size: 4096, datastore: null, label: null };
    const erredPort = { ...port, uuid: 'p-2', key: null, mac: null, network: null, networkUuid: 'net-b' };
    expect(
      vmDrifted(recorded({ disks: [...disks, creating], ports: [port, erredPort] }), remote(), networks),
    ).toBe(false);
  });

  it.each<[string, Partial<RemoteVm>]>([
    ['runtime state', { runtimeState: 'POWERED_OFF' }],
    ['cpu', { cpu: 4 }],
    ['cores per socket', { coresPerSocket: 2 }],
    ['ram', { ram: 4096 }],
    ['tools state', { toolsState: 'NOT_RUNNING' }],
    ['tools installed', { toolsInstalled: false }],
    ['name', { name: 'web-renamed' }],
    ['moref', { moref: 'vm-99' }],
  ])('finds a changed %s', (_, change) => {
    expect(vmDrifted(recorded(), remote(change), networks)).toBe(true);
  });

  it('finds a changed total of disk recorded on the VM', () => {
    expect(vmDrifted(recorded({ disk: 10240 }), remote(), networks)).toBe(true);
  });

  it.each<[string, RecordedVm['state'], string]>([
    ['ERRED with a message', 'ERRED', 'vCenter refused'],
    ['UPDATING', 'UPDATING', ''],
    ['OK with a leftover message', 'OK', 'old'],
  ])('finds a VM %s: recording it leaves it OK', (_, state, errorMessage) => {
    expect(vmDrifted(recorded({ state, errorMessage }), remote(), networks)).toBe(true);
  });

  it('finds a disk added in vCenter', () => {
    const added = remote({
      disks: [
        ...remote().disks,
        { key: 2002, sizeMiB: 1024, datastore: 'datastore-1', label: 'Hard disk 3' },
      ],
    });
    expect(vmDrifted(recorded({ disk: 13312 }), added, networks)).toBe(true);
  });

  it('finds a disk removed in vCenter', () => {
    const removed = remote({ disks: [remote().disks[0]] });
    expect(vmDrifted(recorded({ disk: 10240 }), removed, networks)).toBe(true);
  });

  it.each<[string, Partial<RemoteVm['disks'][number]>]>([
    ['size', { sizeMiB: 3072 }],
    ['datastore', { datastore: 'datastore-2' }],
    ['datastore (none any more)', { datastore: undefined }],
    ['label', { label: 'Hard disk 9' }],
  ])('finds a disk whose %s changed', (_, change) => {
    const [first, second] = remote().disks;
    const changed = remote({ disks: [first, { ...second, ...change }] });
    // The VM's total is kept as recorded, so only the disk comparison can see it.
    const total = changed.disks.reduce((sum, d) => sum + d.sizeMiB, 0);
    expect(vmDrifted(recorded({ disk: total }), changed, networks)).toBe(true);
  });

  it('finds a disk whose key changed (the row gone, a new device)', () => {
    const [first, second] = remote().disks;
    expect(vmDrifted(recorded(), remote({ disks: [first, { ...second, key: 2005 }] }), networks)).toBe(true);
  });

  it('finds an adapter added and one removed in vCenter', () => {
    const added = remote({ nics: [nic, { ...nic, key: 4001, macAddress: '00:50:56:aa:bb:cd' }] });
    expect(vmDrifted(recorded(), added, networks)).toBe(true);
    expect(vmDrifted(recorded(), remote({ nics: [] }), networks)).toBe(true);
  });

  it.each<[string, Partial<RemoteVm['nics'][number]>]>([
    ['MAC', { macAddress: '00:50:56:00:00:01' }],
    ['network', { network: 'network-7' }],
    ['network (one the offering does not know)', { network: 'network-unknown' }],
    ['connection', { connected: false }],
  ])('finds an adapter whose %s changed', (_, change) => {
    expect(vmDrifted(recorded(), remote({ nics: [{ ...nic, ...change }] }), networks)).toBe(true);
  });

  it('finds an adapter whose network became known to the offering since it was recorded', () => {
    const unknown = recorded({ ports: [{ ...port, networkUuid: null }] });
    expect(vmDrifted(unknown, remote(), networks)).toBe(true);
    expect(vmDrifted(unknown, remote(), new Map())).toBe(false);
  });

  it('finds a VM gone from vCenter unless it is already ERRED for that reason', () => {
    expect(vmDrifted(recorded(), undefined, networks)).toBe(true);
    expect(
      vmDrifted(recorded({ state: 'ERRED', errorMessage: 'vCenter refused' }), undefined, networks),
    ).toBe(true);
    expect(vmDrifted(recorded({ state: 'ERRED', errorMessage: VM_GONE }), undefined, networks)).toBe(false);
  });

  it('finds a VM back in vCenter after it was marked gone', () => {
    expect(vmDrifted(recorded({ state: 'ERRED', errorMessage: VM_GONE }), remote(), networks)).toBe(true);
  });
});
