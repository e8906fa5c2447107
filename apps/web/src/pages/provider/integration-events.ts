import type { FeedEvent } from '../../api/event-stream';
import type { Integration, IntegrationStateChanged, SyncFinished, SyncStarted } from '../../api/types';

/** The adapter's integration events, each carrying the integration's whole public view. */
export const INTEGRATION_EVENTS = ['SyncStarted', 'SyncFinished', 'IntegrationStateChanged'] as const;

export type IntegrationEvent =
  | { type: 'SyncStarted'; data: SyncStarted }
  | { type: 'SyncFinished'; data: SyncFinished }
  | { type: 'IntegrationStateChanged'; data: IntegrationStateChanged };

/** The event as its type says, or undefined for any other event of the stream. */
export function integrationEvent(event: FeedEvent): IntegrationEvent | undefined {
  if (!(INTEGRATION_EVENTS as readonly string[]).includes(event.type)) return undefined;
  return { type: event.type, data: event.data } as IntegrationEvent;
}

/** The integration an event shows, if it is about `offeringUuid`. */
export function integrationOf(event: IntegrationEvent, offeringUuid: string): Integration | undefined {
  return event.data.offeringUuid === offeringUuid ? event.data.integration : undefined;
}
