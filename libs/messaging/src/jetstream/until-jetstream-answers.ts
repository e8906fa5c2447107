import { JetStreamApiError } from '@nats-io/jetstream';
import { RequestError, TimeoutError } from '@nats-io/transport-node';

// "JetStream system temporarily unavailable": the asked node knows of no metadata leader;
// "no suitable peers for placement" and "insufficient resources": too few nodes up for the
// replicas asked, until a lost node returns.
const NOT_NOW = new Set([10008, 10005, 10023]);

/**
 * A JetStream API answer that means "not now" rather than "no": on a cluster, the request timed out
 * or was refused while a leader is being elected (a node was just lost, or the cluster has no
 * quorum yet); on any server, a request sent while the connection is being re-established.
 */
export function isJetStreamUnavailable(error: unknown): boolean {
  if (error instanceof TimeoutError) return true;
  if (error instanceof RequestError) return error.cause instanceof TimeoutError;
  return error instanceof JetStreamApiError && NOT_NOW.has(error.code);
}

/**
 * Runs a JetStream set-up step (streams, durables) until JetStream answers it, so that an app
 * started while its cluster elects a leader, or has lost its quorum, waits and comes up with it
 * instead of exiting; any other refusal (a bad configuration, a permission) still fails at once.
 */
export async function untilJetStreamAnswers<T>(
  step: () => Promise<T>,
  onWait: (reason: string, delayMs: number) => void,
  maxDelayMs = 5_000,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (!isJetStreamUnavailable(error)) throw error;
      const delayMs = Math.min(250 * attempt, maxDelayMs);
      onWait((error as Error).message, delayMs);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}
