import type { Logger } from '../logging/json-logger';

// Beyond the grace period for the work in hand, closing connections and the pool gets this long.
const CLOSE_ALLOWANCE_MS = 5_000;

/**
 * A hard stop behind the graceful one: Nest drains on SIGTERM/SIGINT, and if that drain hangs (a
 * dependency that never answers a close), the process still exits once the grace period and a
 * short allowance for closing are over, so an orchestrator's rolling restart never waits forever.
 */
export function installShutdownDeadline(logger: Logger, graceMs: number): void {
  const arm = (signal: NodeJS.Signals) => {
    // An exit after a stop signal must not read as a crash in the log.
    logger.info({ signal, graceMs }, `${signal} received: stopping`);
    const timer = setTimeout(() => {
      logger.error({ signal, graceMs }, 'graceful shutdown overran its deadline; exiting');
      process.exit(1);
    }, graceMs + CLOSE_ALLOWANCE_MS);
    timer.unref();
  };
  process.once('SIGTERM', arm);
  process.once('SIGINT', arm);
}
