import { Injectable } from '@nestjs/common';
import { VmChangedEvent, type VmOperationView } from '@app/contracts';
import { EventOutbox } from '../../adapters/event-outbox';
import type { Transaction } from '@app/messaging';
import type { RemoteVm } from '../../vcenter/ports/vm-provisioner.port';
import type { VmPatch } from '../../vcenter/ports/vm-watch.port';
import { VM_GONE } from '../domain/vm-drift';
import { VmDeviceRepository } from '../repositories/vm-device.repository';
import { VmDeviceReconciler } from '../repositories/vm-device-reconciler';
import { VmSnapshotRepository } from '../repositories/vm-snapshot.repository';
import { VmViewRepository, type LockedVm, type VmRecord } from '../repositories/vm-view.repository';

export { VM_GONE };

/** Where a failed operation's message goes: the VM, one of its devices, or nowhere (a refusal). */
export type FailureTarget =
  | { kind: 'vm' }
  | { kind: 'device'; table: 'disk' | 'port'; uuid: string }
  /** A refusal: nothing Erred; the device it concerned (an extend's, a delete's) is OK again. */
  | { kind: 'none'; device?: { table: 'disk' | 'port'; uuid: string } };

/** Where a whole read of a VM came from, as recordRemote weighs it against the record. */
export interface RemoteReadOptions {
  /** The device an operation created, with the key vCenter gave it. */
  readonly claim?: { readonly table: 'disk' | 'port'; readonly uuid: string; readonly deviceKey: number };
  /** When the caller began the read: a VM recorded changed after it is left as it is. */
  readonly readSince?: Date;
  /**
   * When the live subscription's answer arrived (for its initial answer, before the wait for it):
   * a VM recorded gone after it stays gone. Whoever found it gone read vCenter after the answer's
   * state (vCenter does not reuse morefs, so a VM absent once and present later by the same moref
   * is not one), and the answer's `leave` follows; taking the answer would count a deleted VM's
   * quota again until then.
   */
  readonly answeredAt?: Date;
}

/**
 * Records what happens to a VM in the caller's transaction, each change with its VmChanged (the
 * VM's uuid as correlation id, so its events keep their order): an operation beginning, vCenter's
 * read-back after an operation or a pull, a VM gone from vCenter, a failure. One code path for
 * operations and drift, so both record a VM the same way.
 */
@Injectable()
export class VmRecordService {
  constructor(
    private readonly vms: VmViewRepository,
    private readonly devices: VmDeviceReconciler,
    private readonly deviceRows: VmDeviceRepository,
    private readonly events: EventOutbox,
    private readonly snapshots: VmSnapshotRepository,
  ) {}

  /** The VM turns UPDATING: its operation began (or was accepted). */
  async markUpdating(tx: Transaction, rowUuid: string, operation: VmOperationView): Promise<void> {
    const before = await this.vms.lock(tx, rowUuid);
    if (before === null) return;
    await this.vms.setState(tx, rowUuid, 'UPDATING', '');
    await this.publish(tx, rowUuid, before.runtimeState, operation);
  }

  /**
   * Records the VM as vCenter has it, OK again; appends VmChanged when anything changed or when
   * an operation ended. Returns whether a VmChanged was appended.
   */
  async recordRemote(
    tx: Transaction,
    rowUuid: string,
    remote: RemoteVm,
    networkUuids: ReadonlyMap<string, string>,
    operation: VmOperationView | null,
    { claim, readSince, answeredAt }: RemoteReadOptions = {},
  ): Promise<boolean> {
    const before = await this.vms.lock(tx, rowUuid);
    if (before === null || recordedAfter(before, readSince)) return false;
    if (answeredAt !== undefined && isRecordedGone(before) && before.modified > answeredAt) return false;
    const devices = await this.devices.reconcile(tx, rowUuid, remote, networkUuids, claim);
    const snapshotsChanged = await this.snapshots.reconcile(tx, rowUuid, remote);
    // The device a finished operation concerned is OK again (a deleted one has no row left).
    const device = operation?.state === 'done' ? deviceOf(operation) : null;
    if (device !== null) await this.deviceRows.setState(tx, device.table, device.uuid, 'OK');
    const changed = await this.vms.record(
      tx,
      rowUuid,
      {
        moref: remote.moref,
        name: remote.name,
        runtimeState: remote.runtimeState,
        cpu: remote.cpu,
        coresPerSocket: remote.coresPerSocket,
        ram: remote.ram,
        disk: devices.totalDiskMiB,
        toolsState: remote.toolsState,
        toolsInstalled: remote.toolsInstalled,
      },
      { state: 'OK', errorMessage: '' },
    );
    if (!changed && (devices.changed || snapshotsChanged)) await this.vms.touch(tx, rowUuid);
    if (!changed && !devices.changed && !snapshotsChanged && operation === null) return false;
    await this.publish(tx, rowUuid, before.runtimeState, operation);
    return true;
  }

  /**
   * Records the figures a live update gave of the VM (the rest as recorded: its devices and
   * snapshots did not change), OK again, as recordRemote with no operation would; appends VmChanged
   * when anything changed, and returns whether it did.
   */
  async recordFigures(tx: Transaction, rowUuid: string, figures: VmPatch): Promise<boolean> {
    const before = await this.vms.lock(tx, rowUuid);
    // A VM recorded gone comes back only with a whole read (a pull's, an `enter`): figures for its
    // moref are an answer older than what found it gone (vCenter does not reuse morefs), and
    // taking them would count a deleted VM's quota again until its `leave` came.
    if (before === null || isRecordedGone(before)) return false;
    const changed = await this.vms.recordSome(tx, rowUuid, figures, { state: 'OK', errorMessage: '' });
    if (!changed) return false;
    await this.publish(tx, rowUuid, before.runtimeState, null);
    return true;
  }

  /**
   * The VM is gone from vCenter: ERRED with the reason (once). `readSince`: as for recordRemote.
   */
  async recordGone(
    tx: Transaction,
    rowUuid: string,
    operation: VmOperationView | null,
    readSince?: Date,
  ): Promise<boolean> {
    return this.recordFailure(tx, rowUuid, operation, VM_GONE, { kind: 'vm' }, readSince);
  }

  /**
   * A failed operation: vCenter's message on the VM (ERRED) or on the device it concerned (that
   * ERRED, the VM OK), or, for a refusal, nowhere (the VM OK). Appends VmChanged when an operation
   * ended or something changed.
   */
  async recordFailure(
    tx: Transaction,
    rowUuid: string,
    operation: VmOperationView | null,
    message: string,
    target: FailureTarget,
    readSince?: Date,
  ): Promise<boolean> {
    const before = await this.vms.lock(tx, rowUuid);
    if (before === null || recordedAfter(before, readSince)) return false;
    if (target.kind === 'vm') {
      const unchanged = before.state === 'ERRED' && before.errorMessage === message && operation === null;
      await this.vms.setState(tx, rowUuid, 'ERRED', message);
      if (unchanged) return false;
    } else {
      await this.vms.setState(tx, rowUuid, 'OK', '');
      if (target.kind === 'device')
        await this.deviceRows.setState(tx, target.table, target.uuid, 'ERRED', message);
      else if (target.device !== undefined)
        await this.deviceRows.setState(tx, target.device.table, target.device.uuid, 'OK');
    }
    await this.publish(tx, rowUuid, before.runtimeState, operation);
    return true;
  }

  /** Call after the commit of any of the above. */
  wake(): void {
    this.events.wake();
  }

  private async publish(
    tx: Transaction,
    rowUuid: string,
    previousState: RemoteVm['runtimeState'],
    operation: VmOperationView | null,
  ): Promise<VmRecord | null> {
    const now = await this.vms.getByRow(tx, rowUuid);
    if (now === null) return null;
    await this.events.append(
      tx,
      this.events.subjects.vmChanged,
      VmChangedEvent,
      { previousState, vm: now.view, operation },
      now.view.uuid,
    );
    return now;
  }
}

function isRecordedGone(vm: LockedVm): boolean {
  return vm.state === 'ERRED' && vm.errorMessage === VM_GONE;
}

/**
 * Whether the VM's row changed after `readSince`, when a reader began reading vCenter: whoever
 * recorded it then read vCenter later than that reader (an operation's read-back, the live
 * subscription, whose later answers carry whatever else changed), so the reader's older view of
 * the VM must not replace it.
 */
function recordedAfter(vm: LockedVm, readSince: Date | undefined): boolean {
  return readSince !== undefined && vm.modified > readSince;
}

function deviceOf(operation: VmOperationView): { table: 'disk' | 'port'; uuid: string } | null {
  if (operation.disk_uuid !== null) return { table: 'disk', uuid: operation.disk_uuid };
  if (operation.port_uuid !== null) return { table: 'port', uuid: operation.port_uuid };
  return null;
}
