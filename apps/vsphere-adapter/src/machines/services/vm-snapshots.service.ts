import { Injectable } from '@nestjs/common';
import {
  ok,
  refuse,
  type Page,
  type RequestReply,
  type SnapshotView,
  type VmOperationView,
  type VsphereCaller,
} from '@app/contracts';
import type { StoreAnswer } from '@app/messaging';
import { VcenterAccessService } from '../../integration/services/vcenter-access.service';
import { NOT_FOUND } from '../../services/request-guard.service';
import { snapshotFieldErrors, snapshotRefusal } from '../domain/snapshot-rules';
import { visibilityOf, vmAccessRefusal } from '../domain/vm-access';
import { VmSnapshotRepository } from '../repositories/vm-snapshot.repository';
import { VmViewRepository } from '../repositories/vm-view.repository';
import { VmActionService } from './vm-action.service';

const NOT_CONNECTED = 'The offering of this virtual machine is not connected to a vCenter.';

/**
 * Snapshots of VMs: reads from the recorded tree, changes queued behind the VM's other operations
 * (a snapshot task and a resize never run at once) with the VM UPDATING, answered 202; the tree
 * after it follows as VmChanged. Creation is checked against the offering's limits and vCenter's
 * live state first.
 */
@Injectable()
export class VmSnapshotsService {
  constructor(
    private readonly actions: VmActionService,
    private readonly access: VcenterAccessService,
    private readonly vms: VmViewRepository,
    private readonly snapshots: VmSnapshotRepository,
  ) {}

  /** `create_snapshot`: with an Idempotency-Key, `store` keeps the 202 with the queued operation; nothing is queued past `deadline`. */
  async create(
    caller: VsphereCaller,
    uuid: string,
    body: { name: string; description?: string; memory?: boolean; quiesce?: boolean },
    store?: StoreAnswer,
    deadline?: number,
  ): Promise<RequestReply<VmOperationView>> {
    const acting = await this.actions.actingOn(caller, uuid);
    if (!acting.ok) return acting.reply;
    const access = await this.access.forOffering(acting.vm.view.offering_uuid);
    if (access === null) return refuse(409, NOT_CONNECTED);
    const limits = {
      maxSnapshots: access.integration.maxSnapshots,
      snapshotMaxAgeHours: access.integration.snapshotMaxAgeHours,
      memorySnapshots: access.integration.memorySnapshots,
    };
    const fields = snapshotFieldErrors(body, limits);
    if (Object.keys(fields).length > 0) return { status: 'error', code: 400, fields };
    const live = await this.actions.liveOf(acting.vm, access);
    if (!live.ok) return live.reply;
    const refusal = snapshotRefusal(
      body,
      {
        runtimeState: live.remote.runtimeState,
        toolsState: live.remote.toolsState,
        snapshotCount: live.remote.snapshots?.length ?? 0,
      },
      limits,
    );
    if (refusal !== null) return refuse(409, refusal);
    return this.actions.enqueue(
      caller,
      acting.vm,
      'create_snapshot',
      {
        name: body.name,
        description: body.description ?? '',
        memory: body.memory ?? false,
        quiesce: body.quiesce ?? false,
        maxSnapshots: limits.maxSnapshots,
      },
      { store, deadline },
    );
  }

  /** The VM's tree, parents before children. */
  async ofVm(caller: VsphereCaller, uuid: string): Promise<RequestReply<Page<SnapshotView>>> {
    const vm = await this.vms.get(visibilityOf(caller), uuid);
    if (vm === null) return refuse(404, NOT_FOUND);
    const place = { projectUuid: vm.view.project_uuid, customerUuid: vm.view.customer_uuid };
    const refusal = vmAccessRefusal(caller, place, 'read');
    if (refusal !== null) return refusal;
    const items = vm.view.snapshots ?? [];
    return ok({ items, count: items.length });
  }

  async removeAll(caller: VsphereCaller, uuid: string): Promise<RequestReply<VmOperationView>> {
    const acting = await this.actions.actingOn(caller, uuid);
    if (!acting.ok) return acting.reply;
    return this.actions.enqueue(caller, acting.vm, 'delete_all_snapshots', {});
  }

  async list(
    caller: VsphereCaller,
    query: { page: number; page_size: number; vm_uuid?: string },
  ): Promise<RequestReply<Page<SnapshotView>>> {
    const found = await this.snapshots.list(
      visibilityOf(caller),
      { page: query.page, pageSize: query.page_size },
      query.vm_uuid,
    );
    return ok(found);
  }

  async get(caller: VsphereCaller, uuid: string): Promise<RequestReply<SnapshotView>> {
    const found = await this.snapshots.get(visibilityOf(caller), uuid);
    if (found === null) return refuse(404, NOT_FOUND);
    return vmAccessRefusal(caller, found.place, 'read') ?? ok(found.view);
  }

  revert(caller: VsphereCaller, uuid: string): Promise<RequestReply<VmOperationView>> {
    return this.onSnapshot(caller, uuid, 'revert_snapshot');
  }

  delete(caller: VsphereCaller, uuid: string): Promise<RequestReply<VmOperationView>> {
    return this.onSnapshot(caller, uuid, 'delete_snapshot');
  }

  private async onSnapshot(
    caller: VsphereCaller,
    uuid: string,
    kind: 'revert_snapshot' | 'delete_snapshot',
  ): Promise<RequestReply<VmOperationView>> {
    const found = await this.snapshots.get(visibilityOf(caller), uuid);
    if (found === null) return refuse(404, NOT_FOUND);
    const acting = await this.actions.actingOn(caller, found.vmUuid);
    if (!acting.ok) return acting.reply;
    return this.actions.enqueue(caller, acting.vm, kind, {
      snapshotUuid: found.view.uuid,
      snapshot: found.view.backend_id,
    });
  }
}
