import type { Transaction } from '@app/messaging';
import type { RemoteVm } from '../../vcenter/ports/vm-provisioner.port';

/**
 * Brings a VM's disk and adapter rows in line with the VM as vCenter has it, keeping each row's
 * uuid: rows are matched by device key; a device vCenter has and we do not becomes a new OK row
 * (a disk added directly in vCenter); a row whose device is gone is deleted, except rows still
 * without a key (CREATING, or ERRED because vCenter never made them). `claim` first gives the
 * device an operation just created its key (the row the request inserted). Returns whether
 * anything changed, and the total disk in MiB.
 */
export abstract class VmDeviceReconciler {
  abstract reconcile(
    tx: Transaction,
    vmRowUuid: string,
    remote: Pick<RemoteVm, 'disks' | 'nics'>,
    networkUuids: ReadonlyMap<string, string>,
    claim?: { readonly table: 'disk' | 'port'; readonly uuid: string; readonly deviceKey: number },
  ): Promise<{ changed: boolean; totalDiskMiB: number }>;
}
