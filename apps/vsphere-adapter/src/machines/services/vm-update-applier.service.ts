import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '@app/messaging';
import type { RemoteVm } from '../../vcenter/ports/vm-provisioner.port';
import type { VmChange } from '../domain/vm-update-coalesce';
import { PlacementRepository } from '../repositories/placement.repository';
import { VmOperationRepository } from '../repositories/vm-operation.repository';
import { VmViewRepository } from '../repositories/vm-view.repository';
import { VmWatchStateRepository } from '../repositories/vm-watch-state.repository';
import { VmRecordService } from './vm-record.service';

/** What applying one answer did. */
export interface AppliedAnswer {
  /** VmChanged appended. */
  readonly changed: number;
  /** VMs read again from vCenter (a change the answer did not carry whole). */
  readonly read: number;
  /**
   * Managed VMs whose change was left because an operation of theirs was queued or running: its
   * read-back may have read vCenter before the change, so they are read once it has ended.
   */
  readonly deferred: readonly string[];
}

/**
 * Applies one answer of the live subscription, coalesced per VM (coalesceUpdates), in vCenter's
 * order, one transaction per VM, each recorded as a pull records it (VmRecordService: VmChanged
 * with `operation: null`, gone → ERRED). What the answer carries is recorded as it is: a VM whole
 * (`enter`), the figures a `modify` assigned (a power state, a name, a size) or its leaving; a VM
 * recorded gone after the answer arrived stays gone (RemoteReadOptions.answeredAt). Only the VMs
 * whose change it does not carry whole (devices, snapshots) are read, all in one round trip. VMs
 * of others cost one index probe for the whole answer; VMs with an operation queued or running are
 * left to its read-back, as the pull leaves them, and answered as `deferred`.
 */
@Injectable()
export class VmUpdateApplier {
  constructor(
    private readonly states: VmWatchStateRepository,
    private readonly operations: VmOperationRepository,
    private readonly placement: PlacementRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly recorder: VmRecordService,
    private readonly vms: VmViewRepository,
  ) {}

  /** Records the managed VMs among `changes`, reading with `read` those it must. */
  async apply(
    offeringUuid: string,
    changes: readonly VmChange[],
    read: (morefs: readonly string[]) => Promise<RemoteVm[]>,
  ): Promise<AppliedAnswer> {
    const managed = await this.states.managedByMoref(
      offeringUuid,
      changes.map((c) => c.moref),
    );
    if (managed.length === 0) return { changed: 0, read: 0, deferred: [] };
    // Before anything is read: an answer (or a read) applied late must not bring back a VM a pull
    // found gone meanwhile.
    const answeredAt = await this.vms.now();
    const busy = await this.operations.busyVms(managed.map((vm) => vm.rowUuid));
    const ours = new Map(managed.filter((vm) => !busy.has(vm.rowUuid)).map((vm) => [vm.moref, vm]));
    const deferred = managed.filter((vm) => busy.has(vm.rowUuid)).map((vm) => vm.moref);
    const todo = changes.filter((c) => ours.has(c.moref));
    if (todo.length === 0) return { changed: 0, read: 0, deferred };
    const toRead = todo.filter((c) => c.kind === 'read').map((c) => c.moref);
    const needsNetworks = todo.some((c) => c.kind === 'read' || c.kind === 'whole');
    const [remotes, networks] = await Promise.all([
      toRead.length > 0 ? read(toRead) : Promise.resolve([]),
      needsNetworks
        ? this.placement.networksByBackendId(offeringUuid)
        : Promise.resolve(new Map<string, string>()),
    ]);
    const readByMoref = new Map(remotes.map((remote) => [remote.moref, remote]));
    let changed = 0;
    for (const change of todo) {
      const vm = ours.get(change.moref)!;
      const appended = await this.unitOfWork.run((tx) => {
        if (change.kind === 'patch') return this.recorder.recordFigures(tx, vm.rowUuid, change.patch);
        const remote =
          change.kind === 'whole'
            ? change.remote
            : change.kind === 'read'
              ? readByMoref.get(vm.moref)
              : undefined;
        // A moref that names another VM now (vCenter does not reuse them, a re-registration does)
        // means ours is gone, as the pull, matching by vCenter's uuid, would find it.
        return remote === undefined || remote.uuid !== vm.backendUuid
          ? this.recorder.recordGone(tx, vm.rowUuid, null)
          : this.recorder.recordRemote(tx, vm.rowUuid, remote, networks, null, { answeredAt });
      });
      if (!appended) continue;
      changed++;
      // The relay publishes while the rest of a burst is recorded (a pass under way takes it next).
      this.recorder.wake();
    }
    return { changed, read: toRead.length, deferred };
  }
}
