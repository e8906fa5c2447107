import { Inject, Injectable } from '@nestjs/common';
import type { VmOperationKind } from '@app/contracts';
import { VM_PROVISIONER, type VmProvisioner } from '../../../vcenter/ports/vm-provisioner.port';
import { VM_SNAPSHOTS, type VmSnapshots } from '../../../vcenter/ports/vm-snapshots.port';
import { snapshotRefusal } from '../../domain/snapshot-rules';
import { VmGone } from '../operation-failures';
import {
  OperationRefused,
  type OperationContext,
  type OperationResult,
  type VmOperationExecutor,
} from '../vm-operation-executor';

/** What the request handler stores for a snapshot operation. */
export interface SnapshotParams {
  readonly name?: string;
  readonly description?: string;
  readonly memory?: boolean;
  readonly quiesce?: boolean;
  /** The offering's limit when the request was accepted. */
  readonly maxSnapshots?: number;
  /** The snapshot a revert or delete concerns: our uuid, and vCenter's id of it. */
  readonly snapshotUuid?: string;
  readonly snapshot?: string;
}

export const SNAPSHOT_GONE = 'The snapshot no longer exists in vCenter.';

/**
 * create_snapshot, revert_snapshot, delete_snapshot, delete_all_snapshots: each checked again
 * against vCenter's live tree and state (the VM may have changed there since the request, or this
 * is a repeat after a crash), then one task waited for. A snapshot already gone is done for a
 * delete and refused for a revert.
 */
@Injectable()
export class SnapshotExecutor implements VmOperationExecutor {
  readonly kinds: readonly VmOperationKind[] = [
    'create_snapshot',
    'revert_snapshot',
    'delete_snapshot',
    'delete_all_snapshots',
  ];

  constructor(
    @Inject(VM_PROVISIONER) private readonly vcenter: VmProvisioner,
    @Inject(VM_SNAPSHOTS) private readonly snapshots: VmSnapshots,
  ) {}

  async execute({ operation, connection, short, long }: OperationContext): Promise<OperationResult> {
    const vm = await this.vcenter.read(connection, operation.moref, short);
    if (vm === undefined) throw new VmGone();
    const params = operation.params as SnapshotParams;
    const tree = vm.snapshots ?? [];
    const exists = params.snapshot !== undefined && tree.some((s) => s.moref === params.snapshot);
    switch (operation.kind) {
      case 'create_snapshot': {
        const refusal = snapshotRefusal(
          params,
          { runtimeState: vm.runtimeState, toolsState: vm.toolsState, snapshotCount: tree.length },
          { maxSnapshots: params.maxSnapshots ?? 32, snapshotMaxAgeHours: 72, memorySnapshots: true },
        );
        if (refusal !== null) throw new OperationRefused(refusal);
        await this.snapshots.create(
          connection,
          operation.moref,
          {
            name: params.name ?? '',
            description: params.description ?? '',
            memory: params.memory ?? false,
            quiesce: params.quiesce ?? false,
          },
          long,
        );
        return {};
      }
      case 'revert_snapshot':
        if (!exists || params.snapshot === undefined) throw new OperationRefused(SNAPSHOT_GONE);
        await this.snapshots.revert(connection, params.snapshot, long);
        return {};
      case 'delete_snapshot':
        if (exists && params.snapshot !== undefined)
          await this.snapshots.remove(connection, params.snapshot, long);
        return {};
      default:
        if (tree.length > 0) await this.snapshots.removeAll(connection, operation.moref, long);
        return {};
    }
  }
}
