import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { VM_SIZES_PATTERN, vmSizesRequestSchema, type RequestReply, type VmSizesPage } from '@app/contracts';
import { RequestGuard } from '../../services/request-guard.service';
import { VmQueryService } from '../services/vm-query.service';

/** `vsphere-internal.vms.sizes`, asked by the order service's quota recount. */
@Controller()
export class VmSizesController {
  constructor(
    private readonly guard: RequestGuard,
    private readonly vms: VmQueryService,
  ) {}

  @MessagePattern(VM_SIZES_PATTERN)
  async onVmSizes(@Payload() payload: unknown): Promise<RequestReply<VmSizesPage>> {
    return this.guard.handleSchema(vmSizesRequestSchema, payload, (request) => this.vms.sizes(request));
  }
}
