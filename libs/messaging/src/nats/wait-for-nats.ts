import { connect, ConnectionError, type ConnectionOptions } from '@nats-io/transport-node';
import type { Logger } from '@app/platform/logging/json-logger';

// Reasons to wait rather than fail: nothing listens yet, or the server is still coming up.
const NOT_THERE_YET = /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|timeout/i;

function isNotThereYet(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const cause = (error as Error & { cause?: { code?: string } }).cause;
  return (
    (error instanceof ConnectionError && NOT_THERE_YET.test(`${error.message} ${cause?.code ?? ''}`)) ||
    error.name === 'TimeoutError'
  );
}

/**
 * Waits until NATS accepts a connection with these options, so an app started while NATS is away
 * comes up with it instead of exiting (start order and outages must not matter). A refusal that
 * waiting cannot cure — bad credentials, an untrusted certificate — still fails at once, with its
 * reason, as a configuration mistake should.
 */
export async function waitForNats(
  options: ConnectionOptions,
  logger: Logger,
  maxDelayMs = 5_000,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      const probe = await connect({ ...options, reconnect: false, name: `${options.name ?? 'app'}-probe` });
      await probe.close();
      return;
    } catch (error) {
      if (!isNotThereYet(error)) throw error;
      const delayMs = Math.min(250 * attempt, maxDelayMs);
      logger.warn({ reason: (error as Error).message, delayMs }, 'waiting for NATS');
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}
