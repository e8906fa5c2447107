import { Inject, Injectable } from '@nestjs/common';
import { OrderErredEvent, type Envelope, type OrderSubmitted } from '@app/contracts';
import { DONE, SERVICE_RUNTIME, type HandlerOutcome, type ServiceRuntime } from '@app/messaging';

/**
 * Answers each OrderSubmitted exactly once: the inbox row and the answer in the outbox are written
 * in one transaction, and the relay publishes the answer after the commit.
 *
 * Backbone stage: the adapter has no vCenter client and no credential store yet, so it cannot
 * provision and says so on the order (OrderErred) instead of pretending. The vCenter work (deploy,
 * hardware, OrderDone) takes the place of this effect when the adapter gets its vCenter connection.
 */
@Injectable()
export class OrderProvisioningService {
  constructor(@Inject(SERVICE_RUNTIME) private readonly runtime: ServiceRuntime) {}

  async onOrderSubmitted(envelope: Envelope<OrderSubmitted>): Promise<HandlerOutcome> {
    const { outbox, topology, inbox, logger } = this.runtime;
    const { orderUuid, resourceUuid, offeringUuid } = envelope.data;
    const result = await inbox.runOnce(envelope, async (manager) => {
      const errorMessage = `Offering ${offeringUuid} is not connected to a vCenter: the vSphere adapter has no credentials for it.`;
      await outbox.append(
        manager,
        topology.subjects.orderErred,
        OrderErredEvent,
        { orderUuid, resourceUuid, errorMessage },
        orderUuid,
      );
    });
    if (result.duplicate) {
      logger.info({ eventId: envelope.id }, 'OrderSubmitted already answered; redelivery acknowledged');
    } else {
      logger.info({ eventId: envelope.id }, 'OrderSubmitted answered with OrderErred');
      this.runtime.relay.wake();
    }
    return DONE;
  }
}
