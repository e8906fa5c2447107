import type { VcenterConnection } from '../../integration/domain/vcenter-connection';
import type { VmCallOptions } from './vm-provisioner.port';

/** The snapshot tasks of a VM; each waited for, vCenter's faults raised as they come. */
export interface VmSnapshots {
  /** CreateSnapshot_Task; the new snapshot's managed object id. */
  create(
    connection: VcenterConnection,
    moref: string,
    spec: { name: string; description: string; memory: boolean; quiesce: boolean },
    options: VmCallOptions,
  ): Promise<string | undefined>;
  /** RevertToSnapshot_Task on snapshot `snapshot` (its managed object id). */
  revert(connection: VcenterConnection, snapshot: string, options: VmCallOptions): Promise<void>;
  /** RemoveSnapshot_Task keeping its children. */
  remove(connection: VcenterConnection, snapshot: string, options: VmCallOptions): Promise<void>;
  /** RemoveAllSnapshots_Task. */
  removeAll(connection: VcenterConnection, moref: string, options: VmCallOptions): Promise<void>;
}

export const VM_SNAPSHOTS = Symbol('VmSnapshots');
