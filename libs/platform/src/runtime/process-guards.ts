import type { Logger } from '../logging/json-logger';

/**
 * What ends a service process, and what does not, once it serves:
 * - A promise rejected with nobody to catch it (a background task's forgotten `catch`) is a bug to
 *   see, not a reason to stop: Node's default ends the process with exit code 1, dropping every
 *   order in hand and making a passing Postgres or NATS outage an outage of the service. It is
 *   logged as an error with its stack, and the process goes on (its work is idempotent and
 *   redelivered; health still tells the truth about its dependencies).
 * - An exception thrown with nobody to catch it leaves the process in an unknown state: it still
 *   exits 1, but first writes one fatal JSON line with the stack, so the exit explains itself.
 */
export function installProcessGuards(logger: Logger): void {
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'a promise was rejected with nobody to handle it; the process goes on');
  });
  process.on('uncaughtException', (error, origin) => {
    logger.fatal({ err: error, origin }, 'uncaught exception; exiting');
    process.exit(1);
  });
}
