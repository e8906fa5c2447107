import type { MoRef } from './mo-ref';
import type { SnapshotInfo } from './snapshot';
import type { ToolsRunningStatus, VirtualMachinePowerState, VmDevice } from './virtual-machine';

/** vim25 Datacenter (subset). */
export interface DatacenterInfo {
  readonly ref: MoRef;
  readonly name: string;
  readonly vmFolder?: MoRef;
  readonly hostFolder?: MoRef;
}

/** vim25 ClusterComputeResource (subset) with its root resource pool. */
export interface ClusterInfo {
  readonly ref: MoRef;
  readonly name: string;
  readonly resourcePool?: MoRef;
  readonly hosts: readonly MoRef[];
  readonly datastores: readonly MoRef[];
  readonly networks: readonly MoRef[];
}

/** vim25 HostSystem (subset). */
export interface HostInfo {
  readonly ref: MoRef;
  readonly name: string;
  readonly parent?: MoRef;
  readonly connectionState?: string;
  readonly inMaintenanceMode?: boolean;
}

/** vim25 ResourcePool (subset); `owner` is the cluster or standalone compute resource. */
export interface ResourcePoolInfo {
  readonly ref: MoRef;
  readonly name: string;
  readonly parent?: MoRef;
  readonly owner?: MoRef;
}

/** vim25 Datastore summary (subset). Sizes in bytes. */
export interface DatastoreInfo {
  readonly ref: MoRef;
  readonly name: string;
  readonly type: string;
  readonly capacity: number;
  readonly freeSpace: number;
  readonly accessible: boolean;
  /** summary.url: the datastore's URL (`ds:///vmfs/volumes/...`; a local path on vcsim). */
  readonly url?: string;
}

/** vim25 Network / DistributedVirtualPortgroup / OpaqueNetwork, told apart by `kind`. */
export type NetworkInfo =
  | { readonly kind: 'standard'; readonly ref: MoRef; readonly name: string }
  | {
      readonly kind: 'distributed';
      readonly ref: MoRef;
      readonly name: string;
      readonly portgroupKey: string;
      readonly switchRef?: MoRef;
      readonly switchUuid?: string;
      readonly uplink: boolean;
    }
  | {
      readonly kind: 'opaque';
      readonly ref: MoRef;
      readonly name: string;
      readonly opaqueNetworkId: string;
      readonly opaqueNetworkType: string;
    };

/** vim25 Folder that holds VMs (childType includes VirtualMachine). */
export interface VmFolderInfo {
  readonly ref: MoRef;
  readonly name: string;
  readonly parent?: MoRef;
}

/** vim25 VirtualMachine (the properties the marketplace reads). */
export interface VmInfo {
  readonly ref: MoRef;
  readonly name: string;
  readonly powerState: VirtualMachinePowerState;
  readonly numCPU?: number;
  readonly numCoresPerSocket?: number;
  readonly memoryMB?: number;
  readonly devices: readonly VmDevice[];
  readonly toolsRunningStatus?: ToolsRunningStatus;
  readonly guestState?: string;
  /** `config.tools.toolsInstallType` (`guestToolsTypeMSI`, ...; absent or `guestToolsTypeUnknown`: not installed). */
  readonly toolsInstallType?: string;
  readonly template: boolean;
  readonly uuid?: string;
  readonly instanceUuid?: string;
  readonly host?: MoRef;
  readonly resourcePool?: MoRef;
  readonly parent?: MoRef;
  /** `snapshot`: the snapshot tree (undefined with none). */
  readonly snapshot?: SnapshotInfo;
  /** `runtime.consolidationNeeded`. */
  readonly consolidationNeeded?: boolean;
}
