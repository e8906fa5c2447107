import type { XmlObject } from '../xml/decoder';
import type { MoRef } from './mo-ref';

/** vim25 VirtualMachinePowerState. */
export type VirtualMachinePowerState = 'poweredOn' | 'poweredOff' | 'suspended';

/** vim25 VirtualMachineToolsRunningStatus. */
export type ToolsRunningStatus = 'guestToolsNotRunning' | 'guestToolsRunning' | 'guestToolsExecutingScripts';

/**
 * vim25 VirtualDevice (the fields the client reads), with `raw` = the device exactly as vCenter
 * sent it, to be sent back whole on edit/remove.
 */
export interface VirtualDevice {
  readonly key: number;
  /** The device's xsi:type, e.g. `VirtualDisk`, `VirtualVmxnet3`, `ParaVirtualSCSIController`. */
  readonly type: string;
  readonly label?: string;
  readonly controllerKey?: number;
  readonly unitNumber?: number;
  readonly raw: XmlObject;
}

/** vim25 VirtualDisk (subset). */
export interface VirtualDisk extends VirtualDevice {
  readonly kind: 'disk';
  readonly capacityInKB: number;
  readonly fileName?: string;
  readonly datastore?: MoRef;
  readonly thinProvisioned?: boolean;
}

/** Where a network adapter is attached (vim25 VirtualEthernetCard*BackingInfo). */
export type NicBacking =
  | { readonly kind: 'standard'; readonly network?: MoRef; readonly deviceName: string }
  | { readonly kind: 'distributed'; readonly switchUuid: string; readonly portgroupKey: string }
  | { readonly kind: 'opaque'; readonly opaqueNetworkId: string; readonly opaqueNetworkType: string }
  | { readonly kind: 'other'; readonly backingType?: string };

/** vim25 VirtualEthernetCard (subset). */
export interface VirtualEthernetCard extends VirtualDevice {
  readonly kind: 'nic';
  readonly macAddress?: string;
  readonly backing: NicBacking;
  readonly connected?: boolean;
}

/** vim25 VirtualSCSIController (subset). */
export interface VirtualScsiController extends VirtualDevice {
  readonly kind: 'scsi';
  readonly busNumber: number;
  /** The unit the controller itself takes on its bus (7). */
  readonly scsiCtlrUnitNumber: number;
}

/** vim25 VirtualNVMEController (subset): disks take units 0–14 on it. */
export interface VirtualNvmeController extends VirtualDevice {
  readonly kind: 'nvme';
  readonly busNumber: number;
}

/** Any other device. */
export interface OtherDevice extends VirtualDevice {
  readonly kind: 'other';
}

/** A VM device, told apart by `kind`. */
export type VmDevice =
  VirtualDisk | VirtualEthernetCard | VirtualScsiController | VirtualNvmeController | OtherDevice;
