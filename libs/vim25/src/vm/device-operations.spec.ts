import { readResponse } from '../xml/envelope-reader';
import { asObject, pathOf } from '../xml/values';
import { fixture } from '../../test/support/fixture-caller';
import { toVmDevices } from '../inventory/vm-readers';
import type { VmDevice } from '../types/virtual-machine';
import { DeviceResolutionError, findCreatedDevice } from './device-diff';
import { findFreeScsiSlot } from './disk-operations';
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

describe('findFreeScsiSlot', () => {
  it('takes the first free unit of the first SCSI controller', () => {
    expect(findFreeScsiSlot(recordedDevices())).toMatchObject({ controller: { key: 202 }, unitNumber: 1 });
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
    expect(findFreeScsiSlot([scsi(1000, 0), ...sixDisks])?.unitNumber).toBe(6);
    const full = [
      ...sixDisks,
      disk(2006, 1000, 6),
      ...[8, 9, 10, 11, 12, 13, 14, 15].map((u) => disk(2000 + u, 1000, u)),
    ];
    expect(findFreeScsiSlot([scsi(1001, 1), scsi(1000, 0), ...full])).toMatchObject({
      controller: { key: 1001 },
      unitNumber: 0,
    });
    expect(findFreeScsiSlot([scsi(1000, 0), ...full])).toBeUndefined();
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
  it('keeps a non-default port and names the VM', () => {
    expect(vmrcUrl('cst-52-abc', 'vc.example:8443', { type: 'VirtualMachine', value: 'vm-42' })).toBe(
      'vmrc://clone:cst-52-abc@vc.example:8443/?moid=vm-42',
    );
    expect(vmrcUrl('t', 'vc.example', { type: 'VirtualMachine', value: 'vm-1' })).toBe(
      'vmrc://clone:t@vc.example/?moid=vm-1',
    );
  });
});
