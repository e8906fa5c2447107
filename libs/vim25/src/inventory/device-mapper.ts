import type { XmlValue } from '../xml/decoder';
import { asBoolean, asMoRef, asNumber, asObject, asString, pathOf } from '../xml/values';
import type { NicBacking, VmDevice } from '../types/virtual-machine';

const NIC_TYPES = new Set(['VirtualE1000', 'VirtualE1000e', 'VirtualPCNet32', 'VirtualSriovEthernetCard']);
const SCSI_TYPES = new Set([
  'VirtualLsiLogicController',
  'VirtualLsiLogicSASController',
  'ParaVirtualSCSIController',
  'VirtualBusLogicController',
]);

function nicBacking(backing: XmlValue | undefined): NicBacking {
  const b = asObject(backing);
  switch (b?._type) {
    case 'VirtualEthernetCardNetworkBackingInfo':
      return { kind: 'standard', network: asMoRef(b.network), deviceName: asString(b.deviceName) ?? '' };
    case 'VirtualEthernetCardDistributedVirtualPortBackingInfo':
      return {
        kind: 'distributed',
        switchUuid: asString(pathOf(b, 'port.switchUuid')) ?? '',
        portgroupKey: asString(pathOf(b, 'port.portgroupKey')) ?? '',
      };
    case 'VirtualEthernetCardOpaqueNetworkBackingInfo':
      return {
        kind: 'opaque',
        opaqueNetworkId: asString(b.opaqueNetworkId) ?? '',
        opaqueNetworkType: asString(b.opaqueNetworkType) ?? '',
      };
    default:
      return { kind: 'other', backingType: b?._type };
  }
}

/** True for vim25 VirtualEthernetCard subtypes. Pure. */
export function isNicType(type: string): boolean {
  return NIC_TYPES.has(type) || type.startsWith('VirtualVmxnet');
}

/**
 * Maps one decoded vim25 VirtualDevice (from `config.hardware.device`) to a VmDevice, keeping
 * the raw object for edits. Never keys on labels (vcsim's differ from vCenter's). Pure.
 */
export function toVmDevice(value: XmlValue): VmDevice {
  const raw = asObject(value) ?? {};
  const type = raw._type ?? 'VirtualDevice';
  const base = {
    key: asNumber(raw.key) ?? 0,
    type,
    label: asString(pathOf(raw, 'deviceInfo.label')),
    controllerKey: asNumber(raw.controllerKey),
    unitNumber: asNumber(raw.unitNumber),
    raw,
  };
  if (type === 'VirtualDisk') {
    const backing = asObject(raw.backing);
    return {
      ...base,
      kind: 'disk',
      capacityInKB: asNumber(raw.capacityInKB) ?? Math.floor((asNumber(raw.capacityInBytes) ?? 0) / 1024),
      fileName: asString(backing?.fileName),
      datastore: asMoRef(backing?.datastore),
      thinProvisioned: asBoolean(backing?.thinProvisioned),
    };
  }
  if (isNicType(type)) {
    return {
      ...base,
      kind: 'nic',
      macAddress: asString(raw.macAddress),
      backing: nicBacking(raw.backing),
      connected: asBoolean(pathOf(raw, 'connectable.connected')),
    };
  }
  if (SCSI_TYPES.has(type) || raw.scsiCtlrUnitNumber !== undefined) {
    return {
      ...base,
      kind: 'scsi',
      busNumber: asNumber(raw.busNumber) ?? 0,
      scsiCtlrUnitNumber: asNumber(raw.scsiCtlrUnitNumber) ?? 7,
    };
  }
  if (type === 'VirtualNVMEController') {
    return { ...base, kind: 'nvme', busNumber: asNumber(raw.busNumber) ?? 0 };
  }
  return { ...base, kind: 'other' };
}
