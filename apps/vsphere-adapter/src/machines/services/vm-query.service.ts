import { Injectable } from '@nestjs/common';
import {
  ok,
  refuse,
  type Page,
  type RequestReply,
  type VirtualMachineView,
  type VmSizesPage,
  type VmSizesRequest,
  type VsphereCaller,
} from '@app/contracts';
import { NOT_FOUND } from '../../services/request-guard.service';
import { visibilityOf, vmAccessRefusal } from '../domain/vm-access';
import { VM_GONE } from '../domain/vm-drift';
import { VmViewRepository } from '../repositories/vm-view.repository';

/**
 * The recorded VMs for the gateway (`/api/vmware-virtual-machine/`), with their disks and ports, and
 * their sizes for the order service's quota recount.
 */
@Injectable()
export class VmQueryService {
  constructor(private readonly vms: VmViewRepository) {}

  async list(
    caller: VsphereCaller,
    query: { page: number; page_size: number; project_uuid?: string },
  ): Promise<RequestReply<Page<VirtualMachineView>>> {
    const found = await this.vms.list(
      visibilityOf(caller),
      { page: query.page, pageSize: query.page_size },
      query.project_uuid,
    );
    return ok({ items: found.items.map((r) => r.view), count: found.count });
  }

  async get(caller: VsphereCaller, uuid: string): Promise<RequestReply<VirtualMachineView>> {
    // The SQL holds what the caller sees; the policy's own word on the one VM besides.
    const found = await this.vms.get(visibilityOf(caller), uuid);
    if (found === null) return refuse(404, NOT_FOUND);
    const place = { projectUuid: found.view.project_uuid, customerUuid: found.view.customer_uuid };
    return vmAccessRefusal(caller, place, 'read') ?? ok(found.view);
  }

  /** A page of the recorded VMs' sizes (the order service asks, on its own word: no caller). */
  async sizes(request: VmSizesRequest): Promise<RequestReply<VmSizesPage>> {
    const { vms, readAt } = await this.vms.sizes(request.after, request.limit, VM_GONE);
    const last = vms.at(-1);
    return ok({
      vms,
      read_at: readAt.toISOString(),
      next: vms.length === request.limit && last ? last.marketplace_resource_uuid : null,
    });
  }
}
