import type { ClientNats } from '@nestjs/microservices';
import { VM_ACTION_OPERATIONS, type RequestReply } from '@app/contracts';
import { askService, NO_ANSWER } from '@app/messaging';

/**
 * `vsphere.vm.stop` over core NATS, as the system's own user: the adapter checks its token and the
 * VM's state like any caller's (a VM already off is a 409), queues the stop and answers 202.
 */
export class VsphereVmPowerClient {
  constructor(
    private readonly client: ClientNats,
    private readonly timeoutMs = 10_000,
  ) {}

  async stop(vmUuid: string, token: string): Promise<RequestReply<unknown> | 'no answer'> {
    const reply = await askService(
      this.client,
      VM_ACTION_OPERATIONS.stop.pattern,
      { caller: { token }, params: { uuid: vmUuid }, query: {}, body: {} },
      this.timeoutMs,
    );
    return reply === NO_ANSWER ? 'no answer' : (reply as RequestReply<unknown>);
  }
}
