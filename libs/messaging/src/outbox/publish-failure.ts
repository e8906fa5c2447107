import { JetStreamApiError } from '@nats-io/jetstream';
import { InvalidArgumentError, InvalidSubjectError } from '@nats-io/transport-node';
import { isJetStreamUnavailable } from '../jetstream/until-jetstream-answers';

/**
 * What a failed publish says about the event:
 * - `unpublishable`: it can never go out as it is (over the server's max_payload, a bad subject);
 * - `rejected`: the server refused it (a JetStream API error) — counted, parked after a bound;
 * - `unavailable`: JetStream did not answer, or said it cannot yet (a timeout; on a cluster while
 *   leaders are elected, or for as long as a quorum is lost) — never counted toward parking;
 * - `transient`: NATS away, no stream answering yet — not the event's fault.
 */
export type PublishFailure = 'unpublishable' | 'rejected' | 'unavailable' | 'transient';

export function classifyPublishFailure(error: unknown): PublishFailure {
  if (error instanceof InvalidArgumentError || error instanceof InvalidSubjectError) return 'unpublishable';
  if (isJetStreamUnavailable(error)) return 'unavailable';
  if (error instanceof JetStreamApiError) return 'rejected';
  return 'transient';
}

/** Backoff of one event after `attempts` failures: doubling from 500 ms, capped at 30 s. */
export function publishRetryDelay(attempts: number): number {
  return Math.min(500 * 2 ** Math.max(attempts - 1, 0), 30_000);
}
