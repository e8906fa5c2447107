import type { ToolsState } from '@app/contracts';
import type { VcenterConnection } from '../../integration/domain/vcenter-connection';

/** vim25 power states in the REST spelling the marketplace shows (Waldur's RuntimeStates). */
export type RuntimeState = 'POWERED_ON' | 'POWERED_OFF' | 'SUSPENDED';

export interface RemoteDisk {
  readonly key: number;
  readonly sizeMiB: number;
  readonly datastore?: string;
  readonly label?: string;
}

export interface RemoteNic {
  readonly key: number;
  readonly macAddress?: string;
  /** The network's managed object id (standard port groups; distributed ones give the port group key). */
  readonly network?: string;
  readonly connected: boolean;
  /** vCenter's label ("Network adapter 2"): the name of a row made for an adapter added in vCenter. */
  readonly label?: string;
}

/** One snapshot of a VM's tree, flattened: parents come before their children. */
export interface RemoteSnapshot {
  /** Managed object id (`snapshot-12`). */
  readonly moref: string;
  readonly parent: string | null;
  readonly name: string;
  readonly description: string;
  /** ISO time vCenter took it. */
  readonly created: string;
  /** The VM's memory is in it (vCenter's snapshot `state` is poweredOn). */
  readonly memory: boolean;
  readonly quiesced: boolean;
}

/** A VM as vCenter has it now. */
export interface RemoteVm {
  /** Managed object id (`vm-42`). */
  readonly moref: string;
  /** vCenter's instance uuid (unique in the vCenter). */
  readonly uuid: string;
  readonly name: string;
  readonly annotation: string;
  readonly runtimeState: RuntimeState;
  readonly cpu: number;
  readonly coresPerSocket: number;
  readonly ram: number;
  readonly disks: readonly RemoteDisk[];
  readonly nics: readonly RemoteNic[];
  /** Waldur's ToolsStates from `guest.toolsRunningStatus`. */
  readonly toolsState: ToolsState;
  /** False when `config.tools.toolsInstallType` is absent, empty or `guestToolsTypeUnknown`. */
  readonly toolsInstalled: boolean;
  /** Its snapshot tree (absent where a reader did not ask for it). */
  readonly snapshots?: readonly RemoteSnapshot[];
  /** The snapshot the VM runs from (`snapshot.currentSnapshot`). */
  readonly currentSnapshot?: string | null;
  /** `runtime.consolidationNeeded`. */
  readonly consolidationNeeded?: boolean;
}

/** What a Content Library deploy takes, in vCenter's ids. */
export interface DeployRequest {
  readonly itemId: string;
  readonly name: string;
  /** Becomes the VM's annotation: it carries the order's mark (see order-mark.ts). */
  readonly description: string;
  /** Always set: vCenter 8 refuses a deploy without a folder. */
  readonly folder: string;
  readonly cluster: string;
  readonly datastore?: string;
  readonly cpu: number;
  readonly coresPerSocket: number;
  readonly ram: number;
  /** Network ids in the order of the template's adapters (by key). */
  readonly networks: readonly string[];
}

export interface VmCallOptions {
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
}

/**
 * The VM operations of orders against an offering's vCenter. Long operations (the deploy, task
 * waits) run on connections of their own, so they never hold the ones short reads use.
 */
export interface VmProvisioner {
  /** The VM whose annotation ends with the line `mark`, if vCenter has one. One property-collector round trip. */
  findMarked(
    connection: VcenterConnection,
    mark: string,
    options: VmCallOptions,
  ): Promise<RemoteVm | undefined>;
  /** The datacenter's VM folder (the folder a deploy goes to when the order names none). */
  defaultVmFolder(connection: VcenterConnection, options: VmCallOptions): Promise<string>;
  /** Deploys the template powered off; returns the VM's managed object id. */
  deploy(connection: VcenterConnection, request: DeployRequest, options: VmCallOptions): Promise<string>;
  powerOn(connection: VcenterConnection, moref: string, options: VmCallOptions): Promise<void>;
  /** PowerOffVM_Task, ResetVM_Task or SuspendVM_Task; waited for. */
  power(
    connection: VcenterConnection,
    moref: string,
    action: 'stop' | 'reset' | 'suspend',
    options: VmCallOptions,
  ): Promise<void>;
  /** ReconfigVM_Task with the fields given; waited for. */
  reconfigure(
    connection: VcenterConnection,
    moref: string,
    change: { cpu?: number; coresPerSocket?: number; ram?: number },
    options: VmCallOptions,
  ): Promise<void>;
  /**
   * Adds a thin disk of `sizeMiB` next to the VM's files (ReconfigVM_Task, fileOperation=create)
   * and returns its device key, found by key diff. Two device reads and the task.
   */
  addDisk(
    connection: VcenterConnection,
    moref: string,
    sizeMiB: number,
    options: VmCallOptions,
  ): Promise<number>;
  /** Grows the disk with key `diskKey` to `sizeMiB` (ReconfigVM_Task edit). Two reads and the task. */
  extendDisk(
    connection: VcenterConnection,
    moref: string,
    diskKey: number,
    sizeMiB: number,
    options: VmCallOptions,
  ): Promise<void>;
  /** Removes the disk and deletes its file (ReconfigVM_Task remove, fileOperation=destroy). */
  removeDisk(
    connection: VcenterConnection,
    moref: string,
    diskKey: number,
    options: VmCallOptions,
  ): Promise<void>;
  /**
   * Adds a VMXNET3 adapter on the network with managed object id `network` (its backing read from
   * vCenter: standard, distributed or opaque), connected now when `connected`, and returns its key,
   * found by key diff and backing. Throws DeviceChangeImpossible when vCenter has no such network.
   */
  addNic(
    connection: VcenterConnection,
    moref: string,
    network: string,
    connected: boolean,
    options: VmCallOptions,
  ): Promise<number>;
  /** Removes the adapter with key `nicKey` (ReconfigVM_Task remove). */
  removeNic(
    connection: VcenterConnection,
    moref: string,
    nicKey: number,
    options: VmCallOptions,
  ): Promise<void>;
  /** Destroy_Task, waited for; false when the VM was already gone. */
  destroy(connection: VcenterConnection, moref: string, options: VmCallOptions): Promise<boolean>;
  /** The VM's power state (undefined when gone). One property-collector round trip. */
  powerState(
    connection: VcenterConnection,
    moref: string,
    options: VmCallOptions,
  ): Promise<RuntimeState | undefined>;
  /** The VM as it is (undefined when gone). Two round trips. */
  read(connection: VcenterConnection, moref: string, options: VmCallOptions): Promise<RemoteVm | undefined>;
  /**
   * Every VM of the vCenter (templates left out) with power, hardware, devices and Tools, without
   * annotations. One property-collector round trip over a container view.
   */
  readAll(connection: VcenterConnection, options: VmCallOptions): Promise<RemoteVm[]>;
  /**
   * What readAll reads, page by page (`pageSize` VMs at most a page; templates left out, so a page
   * may hold fewer), each page read when the caller asks for it: a caller holds one page at a time.
   * One property-collector round trip per page; stopping early cancels the rest.
   */
  readPages(
    connection: VcenterConnection,
    options: VmCallOptions & { readonly pageSize: number },
  ): AsyncIterable<RemoteVm[]>;
  /** ShutdownGuest or RebootGuest: returns once vCenter accepted it, before the guest acted. */
  guestPower(
    connection: VcenterConnection,
    moref: string,
    action: 'shutdown' | 'reboot',
    options: VmCallOptions,
  ): Promise<void>;
  /** Follows the VM's power state and Tools through the property collector until `reached` holds. */
  waitForGuest(
    connection: VcenterConnection,
    moref: string,
    reached: (state: { runtimeState?: RuntimeState; toolsState?: ToolsState }) => boolean,
    options: VmCallOptions,
  ): Promise<void>;
  /**
   * The VMRC URL of the VM with no ticket (`vmrc://host/?moid=`): VMRC asks for the person's own
   * vCenter credentials. No vCenter call: nothing of the adapter's session goes into it.
   */
  consoleUrl(connection: VcenterConnection, moref: string): string;
  /**
   * The WebMKS URL (`wss://...`) of a VM-scoped, single-use ticket from AcquireTicket('webmks');
   * vCenter's fault where it issues none (InvalidState when the VM is not powered on).
   */
  webConsoleUrl(connection: VcenterConnection, moref: string, options: VmCallOptions): Promise<string>;
}

/**
 * vCenter's state rules a device change out, found before or right after its task (no free SCSI
 * unit, the network gone, ten adapters, the new device not told apart): the operation fails with
 * this message on the disk or adapter, as a fault of vCenter's would.
 */
export class DeviceChangeImpossible extends Error {
  override readonly name = 'DeviceChangeImpossible';
}

export const VM_PROVISIONER = Symbol('VmProvisioner');
