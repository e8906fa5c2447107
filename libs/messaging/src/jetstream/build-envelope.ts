import { randomUUID } from 'node:crypto';
import { withLegacyNames, type Envelope, type EventContract } from '@app/contracts';

/**
 * Builds an envelope, validating the payload first: a publisher never sends what its consumers
 * would reject (those of the version before a rename included: the legacy names are kept).
 */
export function buildEnvelope<T>(contract: EventContract<T>, data: T, correlationId: string): Envelope<T> {
  const parsed = contract.schema.parse(data);
  return {
    id: randomUUID(),
    type: contract.type,
    occurredAt: new Date().toISOString(),
    correlationId,
    data: withLegacyNames(parsed, contract.legacyNames),
  };
}
