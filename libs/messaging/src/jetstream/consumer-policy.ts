import type { HandlerOutcome } from './handler-outcome';

/** How a durable consumer redelivers: chosen on purpose per consumer, never left to server defaults. */
export interface ConsumerPolicy {
  /** Time the server waits for an ack before redelivering; heartbeats (`working()`) extend it. */
  ackWaitMs: number;
  /** Deliveries before the server gives up on a message. */
  maxDeliver: number;
  /** Redelivery delays after a failure, by attempt; the last one repeats. */
  backoffMs: number[];
  /** Messages handled at once by one process. */
  concurrency: number;
}

export const DEFAULT_CONSUMER_POLICY: ConsumerPolicy = {
  ackWaitMs: 30_000,
  maxDeliver: 20,
  backoffMs: [1_000, 5_000, 15_000, 60_000],
  concurrency: 8,
};

/** Delay before the next attempt after `deliveryCount` failed ones. */
export function retryDelay(policy: ConsumerPolicy, deliveryCount: number): number {
  const index = Math.min(Math.max(deliveryCount - 1, 0), policy.backoffMs.length - 1);
  return policy.backoffMs[index];
}

/** What an exception thrown by a handler means: try again later, unless the deliveries are spent. */
export function outcomeOfFailure(
  policy: ConsumerPolicy,
  deliveryCount: number,
  error: unknown,
): HandlerOutcome {
  const reason = error instanceof Error ? error.message : String(error);
  if (deliveryCount >= policy.maxDeliver) {
    return { outcome: 'poison', reason: `gave up after ${deliveryCount} deliveries: ${reason}` };
  }
  return { outcome: 'retry', delayMs: retryDelay(policy, deliveryCount), reason };
}
