import type { ClientNats } from '@nestjs/microservices';
import {
  ok,
  refuse,
  VM_SIZES_PATTERN,
  vmSizesPageSchema,
  type RequestReply,
  type VmSizesPage,
} from '@app/contracts';
import { askService, NO_ANSWER } from '@app/messaging';
import type { VmSizesPort } from '../ports/vm-sizes.port';

/**
 * `vsphere-internal.vms.sizes` over core NATS (only the order service may send it). The answer is
 * checked against its schema: the recount writes what it says into resources.
 */
export class VsphereVmSizesClient implements VmSizesPort {
  constructor(
    private readonly client: ClientNats,
    private readonly timeoutMs = 10_000,
  ) {}

  async page(after: string | null, limit: number): Promise<RequestReply<VmSizesPage>> {
    const reply = await askService(this.client, VM_SIZES_PATTERN, { after, limit }, this.timeoutMs);
    if (reply === NO_ANSWER)
      return refuse(503, 'The vsphere-adapter service is not available; try again shortly.');
    const answer = reply as RequestReply<unknown>;
    if (answer.status !== 'ok') return answer;
    const page = vmSizesPageSchema.safeParse(answer.data);
    if (!page.success)
      return refuse(
        503,
        `The vsphere-adapter answered VM sizes this service cannot read: ${page.error.message}`,
      );
    return ok(page.data);
  }
}
