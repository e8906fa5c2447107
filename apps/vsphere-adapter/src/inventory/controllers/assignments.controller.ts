import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ASSIGNMENT_OPERATIONS as OPS,
  type AssignmentKind,
  type AssignmentView,
  type Page,
  type RequestReply,
} from '@app/contracts';
import { IdempotentRequests } from '@app/messaging';
import { RequestGuard } from '../../services/request-guard.service';
import { AssignmentService, type AssignmentBody } from '../services/assignment.service';

/**
 * `vsphere.assignments.<kind>.add|remove|list` for clusters, networks (new VMs), networks for
 * existing VMs, datastores and folders: staff only; `add` honours the gateway's Idempotency-Key.
 */
@Controller()
export class AssignmentsController {
  constructor(
    private readonly guard: RequestGuard,
    private readonly assignments: AssignmentService,
    private readonly idempotency: IdempotentRequests,
  ) {}

  @MessagePattern(OPS['clusters'].add.pattern)
  async onAddClusters(@Payload() payload: unknown): Promise<RequestReply<AssignmentView>> {
    return this.add('clusters', payload);
  }

  @MessagePattern(OPS['clusters'].remove.pattern)
  async onRemoveClusters(@Payload() payload: unknown): Promise<RequestReply<null>> {
    return this.remove('clusters', payload);
  }

  @MessagePattern(OPS['clusters'].list.pattern)
  async onListClusters(@Payload() payload: unknown): Promise<RequestReply<Page<AssignmentView>>> {
    return this.list('clusters', payload);
  }

  @MessagePattern(OPS['networks'].add.pattern)
  async onAddNetworks(@Payload() payload: unknown): Promise<RequestReply<AssignmentView>> {
    return this.add('networks', payload);
  }

  @MessagePattern(OPS['networks'].remove.pattern)
  async onRemoveNetworks(@Payload() payload: unknown): Promise<RequestReply<null>> {
    return this.remove('networks', payload);
  }

  @MessagePattern(OPS['networks'].list.pattern)
  async onListNetworks(@Payload() payload: unknown): Promise<RequestReply<Page<AssignmentView>>> {
    return this.list('networks', payload);
  }

  @MessagePattern(OPS['existing-vm-networks'].add.pattern)
  async onAddExistingVmNetworks(@Payload() payload: unknown): Promise<RequestReply<AssignmentView>> {
    return this.add('existing-vm-networks', payload);
  }

  @MessagePattern(OPS['existing-vm-networks'].remove.pattern)
  async onRemoveExistingVmNetworks(@Payload() payload: unknown): Promise<RequestReply<null>> {
    return this.remove('existing-vm-networks', payload);
  }

  @MessagePattern(OPS['existing-vm-networks'].list.pattern)
  async onListExistingVmNetworks(@Payload() payload: unknown): Promise<RequestReply<Page<AssignmentView>>> {
    return this.list('existing-vm-networks', payload);
  }

  @MessagePattern(OPS['datastores'].add.pattern)
  async onAddDatastores(@Payload() payload: unknown): Promise<RequestReply<AssignmentView>> {
    return this.add('datastores', payload);
  }

  @MessagePattern(OPS['datastores'].remove.pattern)
  async onRemoveDatastores(@Payload() payload: unknown): Promise<RequestReply<null>> {
    return this.remove('datastores', payload);
  }

  @MessagePattern(OPS['datastores'].list.pattern)
  async onListDatastores(@Payload() payload: unknown): Promise<RequestReply<Page<AssignmentView>>> {
    return this.list('datastores', payload);
  }

  @MessagePattern(OPS['folders'].add.pattern)
  async onAddFolders(@Payload() payload: unknown): Promise<RequestReply<AssignmentView>> {
    return this.add('folders', payload);
  }

  @MessagePattern(OPS['folders'].remove.pattern)
  async onRemoveFolders(@Payload() payload: unknown): Promise<RequestReply<null>> {
    return this.remove('folders', payload);
  }

  @MessagePattern(OPS['folders'].list.pattern)
  async onListFolders(@Payload() payload: unknown): Promise<RequestReply<Page<AssignmentView>>> {
    return this.list('folders', payload);
  }

  private add(kind: AssignmentKind, payload: unknown): Promise<RequestReply<AssignmentView>> {
    // Every kind's operation has the same shape; only the object field's name differs.
    const operation = OPS[kind].add as (typeof OPS)['clusters']['add'];
    return this.guard.handle(operation, payload, (r) =>
      this.idempotency.run(operation.pattern, r, { userUuid: r.caller.user_uuid }, (store) =>
        this.assignments.add(kind, r.caller, r.body as AssignmentBody, store),
      ),
    );
  }

  private remove(kind: AssignmentKind, payload: unknown): Promise<RequestReply<null>> {
    const operation = OPS[kind].remove as (typeof OPS)['clusters']['remove'];
    return this.guard.handle(operation, payload, (r) =>
      this.assignments.remove(kind, r.caller, r.body as AssignmentBody),
    );
  }

  private list(kind: AssignmentKind, payload: unknown): Promise<RequestReply<Page<AssignmentView>>> {
    return this.guard.handle(OPS[kind].list, payload, (r) => this.assignments.list(kind, r.caller, r.query));
  }
}
