import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { VM_STATS, type RequestReply, type VmStatsView } from '@app/contracts';
import { RequestGuard } from '../../services/request-guard.service';
import { VmStatsService } from '../services/vm-stats.service';

/** `GET /api/vmware-virtual-machine/{uuid}/stats/` over core NATS, for the gateway. */
@Controller()
export class VmStatsController {
  constructor(
    private readonly guard: RequestGuard,
    private readonly stats: VmStatsService,
  ) {}

  @MessagePattern(VM_STATS.pattern)
  async onStats(@Payload() payload: unknown): Promise<RequestReply<VmStatsView>> {
    return this.guard.handle(VM_STATS, payload, (r) => this.stats.stats(r.caller, r.params.uuid, r.query));
  }
}
