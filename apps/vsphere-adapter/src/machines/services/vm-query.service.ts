import { Injectable } from '@nestjs/common';
import {
  ok,
  refuse,
  type Page,
  type RequestReply,
  type VirtualMachineView,
  type VsphereCaller,
} from '@app/contracts';
import { NOT_FOUND } from '../../services/request-guard.service';
import { VmViewRepository, type VmVisibility } from '../repositories/vm-view.repository';

/** Whose VMs a caller sees: staff all, others those of their customers. Pure. */
export const visibilityOf = (caller: VsphereCaller): VmVisibility =>
  caller.is_staff ? { all: true } : { all: false, customerUuids: caller.customer_uuids };

/** The recorded VMs for the gateway (`/api/vmware-virtual-machine/`), with their disks and ports. */
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
    const found = await this.vms.get(visibilityOf(caller), uuid);
    return found === null ? refuse(404, NOT_FOUND) : ok(found.view);
  }
}
