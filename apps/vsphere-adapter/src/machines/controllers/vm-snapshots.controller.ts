import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  SNAPSHOT_DELETE,
  SNAPSHOT_GET,
  SNAPSHOT_LIST,
  SNAPSHOT_REVERT,
  VM_CREATE_SNAPSHOT,
  VM_REMOVE_ALL_SNAPSHOTS,
  VM_SNAPSHOTS,
  type Page,
  type RequestReply,
  type SnapshotView,
  type VmOperationView,
} from '@app/contracts';
import { IdempotentRequests } from '@app/messaging';
import { RequestGuard } from '../../services/request-guard.service';
import { VmSnapshotsService } from '../services/vm-snapshots.service';

/** `/api/vmware-snapshots/` and a VM's `create_snapshot`, `snapshots`, `remove_all_snapshots`, over core NATS. */
@Controller()
export class VmSnapshotsController {
  constructor(
    private readonly guard: RequestGuard,
    private readonly snapshots: VmSnapshotsService,
    private readonly idempotency: IdempotentRequests,
  ) {}

  @MessagePattern(VM_CREATE_SNAPSHOT.pattern)
  async onCreateSnapshot(@Payload() payload: unknown): Promise<RequestReply<VmOperationView>> {
    return this.guard.handle(VM_CREATE_SNAPSHOT, payload, (r) =>
      this.idempotency.run(VM_CREATE_SNAPSHOT.pattern, r, { userUuid: r.caller.user_uuid }, (store) =>
        this.snapshots.create(r.caller, r.params.uuid, r.body, store, r.meta?.deadline),
      ),
    );
  }

  @MessagePattern(VM_SNAPSHOTS.pattern)
  async onVmSnapshots(@Payload() payload: unknown): Promise<RequestReply<Page<SnapshotView>>> {
    return this.guard.handle(VM_SNAPSHOTS, payload, (r) => this.snapshots.ofVm(r.caller, r.params.uuid));
  }

  @MessagePattern(VM_REMOVE_ALL_SNAPSHOTS.pattern)
  async onRemoveAll(@Payload() payload: unknown): Promise<RequestReply<VmOperationView>> {
    return this.guard.handle(VM_REMOVE_ALL_SNAPSHOTS, payload, (r) =>
      this.snapshots.removeAll(r.caller, r.params.uuid),
    );
  }

  @MessagePattern(SNAPSHOT_LIST.pattern)
  async onList(@Payload() payload: unknown): Promise<RequestReply<Page<SnapshotView>>> {
    return this.guard.handle(SNAPSHOT_LIST, payload, (r) => this.snapshots.list(r.caller, r.query));
  }

  @MessagePattern(SNAPSHOT_GET.pattern)
  async onGet(@Payload() payload: unknown): Promise<RequestReply<SnapshotView>> {
    return this.guard.handle(SNAPSHOT_GET, payload, (r) => this.snapshots.get(r.caller, r.params.uuid));
  }

  @MessagePattern(SNAPSHOT_REVERT.pattern)
  async onRevert(@Payload() payload: unknown): Promise<RequestReply<VmOperationView>> {
    return this.guard.handle(SNAPSHOT_REVERT, payload, (r) => this.snapshots.revert(r.caller, r.params.uuid));
  }

  @MessagePattern(SNAPSHOT_DELETE.pattern)
  async onDelete(@Payload() payload: unknown): Promise<RequestReply<VmOperationView>> {
    return this.guard.handle(SNAPSHOT_DELETE, payload, (r) => this.snapshots.delete(r.caller, r.params.uuid));
  }
}
