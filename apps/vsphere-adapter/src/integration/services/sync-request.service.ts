import { Inject, Injectable } from '@nestjs/common';
import type { Envelope, SyncRequested } from '@app/contracts';
import { DONE, InboxRepository, type HandlerOutcome } from '@app/messaging';
import type { Logger } from '@app/platform';
import { LOGGER } from '../../adapters/runtime-providers';
import { IntegrationRepository } from '../repositories/integration.repository';
import { SyncCoordinator } from './sync-coordinator.service';

/**
 * SyncRequested from the scheduler: the request is recorded with the event's id in the inbox, in one
 * transaction (a redelivery records nothing twice), and run coalesced with any running
 * synchronisation of the offering.
 */
@Injectable()
export class SyncRequestService {
  constructor(
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly inbox: InboxRepository,
    private readonly integrations: IntegrationRepository,
    private readonly coordinator: SyncCoordinator,
  ) {}

  async onSyncRequested(envelope: Envelope<SyncRequested>): Promise<HandlerOutcome> {
    const { offeringUuid, reason } = envelope.data;
    const result = await this.inbox.runOnce(envelope, (tx) =>
      this.integrations.requestSync(offeringUuid, tx),
    );
    if (result.duplicate) {
      this.logger.info({ eventId: envelope.id, offeringUuid }, 'SyncRequested already recorded');
    } else if (!result.result) {
      this.logger.info(
        { eventId: envelope.id, offeringUuid },
        'SyncRequested for an offering without integration: nothing to do',
      );
    } else {
      this.logger.info({ eventId: envelope.id, offeringUuid, reason }, 'SyncRequested recorded');
      this.coordinator.kick(offeringUuid);
    }
    return DONE;
  }
}
