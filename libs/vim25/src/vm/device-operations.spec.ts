import { readResponse } from '../xml/envelope-reader';
import { asObject, pathOf } from '../xml/values';
import { fixture } from '../../test/support/fixture-caller';
import { toVmDevices } from '../inventory/vm-readers';
import type { VmDevice } from '../types/virtual-machine';
import { DeviceResolutionError, findCreatedDevice } from './device-diff';
import { findFreeDiskSlot, noDiskSlotMessage } from './disk-operations';
import { backingMatches, nicBackingSpec } from './nic-operations';
import { vmrcUrl } from './console-operations';

function recordedDevices(): VmDevice[] {
  const result = readResponse('RetrievePropertiesEx', {
    status: 200,
    body: fixture('RetrievePropertiesEx-vm-devices.response.xml'),
  });
  return toVmDevices(asObject(pathOf(result, 'objects.propSet'))?.val);
}

describe('device mapping (recorded config.hardware.device of a vcsim VM)', () => {
  it('tells disks, adapters and the SCSI controller apart without labels', () => {
    const devices = recordedDevices();
    expect(devices.find((d) => d.kind === 'disk')).toMatchObject({
      key: 255511522,
      capacityInKB: 1024,
      controllerKey: 202,
      unitNumber: 0,
      thinProvisioned: true,
    });
    expect(devices.find((d) => d.kind === 'nic')).toMatchObject({
      type: 'VirtualE1000',
      backing: {
        kind: 'distributed',
        switchUuid: 'fea97929-4b2d-5972-b146-930c6d0b4014',
        portgroupKey: 'dvportgroup-13',
      },
    });
    expect(devices.find((d) => d.kind === 'scsi')).toMatchObject({
      key: 202,
      type: 'ParaVirtualSCSIController',
      scsiCtlrUnitNumber: 7,
    });
  });
});

describe('findFreeDiskSlot', () => {
  it('takes the first free unit of the first SCSI controller', () => {
    expect(findFreeDiskSlot(recordedDevices())).toMatchObject({ controller: { key: 202 }, unitNumber: 1 });
  });

  it('never takes the controller unit 7 and moves to the next controller when full', () => {
    const scsi = (key: number, bus: number): VmDevice => ({
      kind: 'scsi',
      key,
      type: 'VirtualLsiLogicController',
      busNumber: bus,
      scsiCtlrUnitNumber: 7,
      raw: {},
    });
    const disk = (key: number, controllerKey: number, unitNumber: number): VmDevice => ({
      kind: 'disk',
      key,
      type: 'VirtualDisk',
      controllerKey,
      unitNumber,
      capacityInKB: 1,
      raw: {},
    });
    const sixDisks = [0, 1, 2, 3, 4, 5].map((u) => disk(2000 + u, 1000, u));
    expect(findFreeDiskSlot([scsi(1000, 0), ...sixDisks])?.unitNumber).toBe(6);
    const full = [
      ...sixDisks,
      disk(2006, 1000, 6),
      ...[8, 9, 10, 11, 12, 13, 14, 15].map((u) => disk(2000 + u, 1000, u)),
    ];
    expect(findFreeDiskSlot([scsi(1001, 1), scsi(1000, 0), ...full])).toMatchObject({
      controller: { key: 1001 },
      unitNumber: 0,
    });
    expect(findFreeDiskSlot([scsi(1000, 0), ...full])).toBeUndefined();
  });
});

describe('findFreeDiskSlot with NVMe controllers', () => {
  const nvme = (key: number, bus: number): VmDevice => ({
    kind: 'nvme',
    key,
    type: 'VirtualNVMEController',
    busNumber: bus,
    raw: {},
  });
  const scsi = (key: number): VmDevice => ({
    kind: 'scsi',
    key,
    type: 'ParaVirtualSCSIController',
    busNumber: 0,
    scsiCtlrUnitNumber: 7,
    raw: {},
  });
  const disk = (key: number, controllerKey: number, unitNumber: number): VmDevice => ({
    kind: 'disk',
    key,
    type: 'VirtualDisk',
    controllerKey,
    unitNumber,
    capacityInKB: 1,
    raw: {},
  });
  const ide: VmDevice = { kind: 'other', key: 200, type: 'VirtualIDEController', raw: {} };
  const units = (controllerKey: number, list: readonly number[]) =>
    list.map((u) => disk(controllerKey * 100 + u, controllerKey, u));
  const upTo = (n: number) => Array.from({ length: n + 1 }, (_, i) => i);

  it('places a disk on an NVMe controller when it is the only disk controller', () => {
    expect(findFreeDiskSlot([ide, nvme(31000, 0), ...units(31000, [0, 1])])).toMatchObject({
      controller: { key: 31000, kind: 'nvme' },
      unitNumber: 2,
    });
  });

  it('prefers SCSI, uses NVMe units 0-14 only and takes NVMe controllers by bus number', () => {
    expect(findFreeDiskSlot([nvme(31000, 0), scsi(1000)])).toMatchObject({ controller: { key: 1000 } });
    const fullScsi = units(
      1000,
      upTo(15).filter((u) => u !== 7),
    );
    expect(findFreeDiskSlot([nvme(31001, 1), nvme(31000, 0), scsi(1000), ...fullScsi])).toMatchObject({
      controller: { key: 31000 },
      unitNumber: 0,
    });
    expect(findFreeDiskSlot([nvme(31000, 0), ...units(31000, upTo(13))])?.unitNumber).toBe(14);
    expect(findFreeDiskSlot([nvme(31000, 0), ...units(31000, upTo(14))])).toBeUndefined();
  });

  it('explains a VM without a free SCSI or NVMe unit, naming SATA/IDE as unsupported when only those exist', () => {
    expect(noDiskSlotMessage([ide])).toBe(
      'The virtual machine has no SCSI or NVMe controller with a free unit. Disks on SATA or IDE controllers are not supported.',
    );
    expect(noDiskSlotMessage([ide, nvme(31000, 0), ...units(31000, upTo(14))])).toBe(
      'The virtual machine has no SCSI or NVMe controller with a free unit.',
    );
    expect(noDiskSlotMessage([])).toBe(
      'The virtual machine has no SCSI or NVMe controller with a free unit.',
    );
  });

  it('maps a recorded VirtualNVMEController as an NVMe controller', () => {
    expect(
      toVmDevices([
        { _type: 'VirtualNVMEController', key: '205', busNumber: '0', deviceInfo: { label: 'nvme-205' } },
      ]),
    ).toMatchObject([{ kind: 'nvme', key: 205, busNumber: 0, type: 'VirtualNVMEController' }]);
  });
});

describe('findCreatedDevice', () => {
  const nic = (key: number, portgroupKey: string): VmDevice => ({
    kind: 'nic',
    key,
    type: 'VirtualVmxnet3',
    backing: { kind: 'distributed', switchUuid: 'u', portgroupKey },
    raw: {},
  });
  const target = { kind: 'distributed' as const, portgroupKey: 'pg-1', switchUuid: 'u' };

  it('finds the new device by key diff and backing, ignoring a concurrent add elsewhere', () => {
    const created = findCreatedDevice(
      [nic(4000, 'pg-0')],
      [nic(4000, 'pg-0'), nic(4001, 'pg-1'), nic(4002, 'pg-2')],
      'nic',
      (d) => backingMatches(d.backing, target),
    );
    expect(created.key).toBe(4001);
  });

  it('raises on ambiguity and on nothing new', () => {
    expect(() =>
      findCreatedDevice([], [nic(4001, 'pg-1'), nic(4002, 'pg-1')], 'nic', (d) =>
        backingMatches(d.backing, target),
      ),
    ).toThrow(DeviceResolutionError);
    expect(() => findCreatedDevice([nic(4001, 'pg-1')], [nic(4001, 'pg-1')], 'nic', () => true)).toThrow(
      /no new nic/,
    );
  });
});

describe('nicBackingSpec', () => {
  it('builds standard, distributed and opaque backings', () => {
    expect(
      nicBackingSpec({ kind: 'standard', ref: { type: 'Network', value: 'network-7' }, name: 'VM Network' }),
    ).toEqual({
      _type: 'VirtualEthernetCardNetworkBackingInfo',
      deviceName: 'VM Network',
      network: { type: 'Network', value: 'network-7' },
    });
    expect(
      nicBackingSpec({ kind: 'distributed', portgroupKey: 'dvportgroup-13', switchUuid: 'fea9' }),
    ).toEqual({
      _type: 'VirtualEthernetCardDistributedVirtualPortBackingInfo',
      port: { switchUuid: 'fea9', portgroupKey: 'dvportgroup-13' },
    });
    expect(
      nicBackingSpec({ kind: 'opaque', opaqueNetworkId: 'ls-1', opaqueNetworkType: 'nsx.LogicalSwitch' }),
    ).toMatchObject({ opaqueNetworkId: 'ls-1' });
    expect(() => nicBackingSpec({ kind: 'distributed', portgroupKey: 'dvportgroup-13' })).toThrow(
      /switch uuid/,
    );
  });
});

describe('vmrcUrl', () => {
  it('keeps a non-default port, names the VM and carries no ticket or user', () => {
    expect(vmrcUrl('vc.example:8443', { type: 'VirtualMachine', value: 'vm-42' })).toBe(
      'vmrc://vc.example:8443/?moid=vm-42',
    );
    expect(vmrcUrl('vc.example', { type: 'VirtualMachine', value: 'vm-1' })).toBe(
      'vmrc://vc.example/?moid=vm-1',
    );
  });
});
