import type { HandlerOutcome } from './handler-outcome';

/** How a durable consumer redelivers: chosen on purpose per consumer, never left to server defaults. */
export interface ConsumerPolicy {
  /** Time the server waits for an ack before redelivering; heartbeats (`working()`) extend it. */
  ackWaitMs: number;
  /** Redelivery delays after a failure, by attempt; the last one repeats for as long as it takes. */
  backoffMs: number[];
  /** Messages handled at once by one process. */
  concurrency: number;
  /**
   * How long one handler may run. Past it the handler is abandoned (its AbortSignal fires, the
   * heartbeats stop) and the message is redelivered, so a hung handler never holds a slot forever.
   */
  handlerTimeoutMs: number;
}

/**
 * The cap is what a message waiting on a dependency (Postgres away, vCenter unreachable) may wait
 * after its return: 2 s. The acceptance is every order done within 10 s of the return, and a VM
 * order still has its vCenter work and two relays ahead of it then: with a 5 s cap, beside two
 * busy loops, the outage fault suite's orders were done 10.4 s after Postgres was started again.
 * A message retried every 2 s during an outage costs a refused connection and a log line.
 */
export const DEFAULT_CONSUMER_POLICY: ConsumerPolicy = {
  ackWaitMs: 30_000,
  backoffMs: [500, 1_000, 2_000],
  concurrency: 8,
  handlerTimeoutMs: 120_000,
};

/**
 * Thrown by a handler that refuses an event for good (it can never succeed, whatever is retried).
 * The only failure besides a malformed payload that terminates a message.
 */
export class PermanentFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentFailure';
  }
}

/** Delay before the next attempt after `deliveryCount` failed ones: capped, then repeated. */
export function retryDelay(policy: ConsumerPolicy, deliveryCount: number): number {
  const index = Math.min(Math.max(deliveryCount - 1, 0), policy.backoffMs.length - 1);
  return policy.backoffMs[index];
}

/**
 * What an exception thrown by a handler means. Infrastructure failures (Postgres away, a timeout, a
 * reset connection) are transient however long they last: retried with capped backoff, never
 * terminated. Only an explicit `PermanentFailure` is poison.
 */
export function outcomeOfFailure(
  policy: ConsumerPolicy,
  deliveryCount: number,
  error: unknown,
): HandlerOutcome {
  const reason = error instanceof Error ? error.message : String(error);
  if (error instanceof PermanentFailure) return { outcome: 'poison', reason };
  return { outcome: 'retry', delayMs: retryDelay(policy, deliveryCount), reason };
}
