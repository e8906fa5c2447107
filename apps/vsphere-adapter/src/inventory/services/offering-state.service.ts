import { Injectable } from '@nestjs/common';
import { DONE, type HandlerOutcome } from '@app/messaging';
import type { Envelope, OfferingChanged } from '@app/contracts';
import { OfferingStateRepository } from '../repositories/offering-state.repository';

/** Keeps the adapter's copy of each offering's state and provider, from the order service's OfferingChanged. */
@Injectable()
export class OfferingStateService {
  constructor(private readonly states: OfferingStateRepository) {}

  async onOfferingChanged(envelope: Envelope<OfferingChanged>): Promise<HandlerOutcome> {
    const { offering } = envelope.data;
    await this.states.record({
      offeringUuid: offering.uuid,
      customerUuid: offering.customer_uuid,
      state: offering.state,
      changedAt: new Date(envelope.occurredAt),
    });
    return DONE;
  }
}
