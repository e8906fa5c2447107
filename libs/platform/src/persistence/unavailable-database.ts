// Postgres SQLSTATE classes that mean "the database is not there right now", not "your query is
// wrong": 08 connection exception, 57P01-03 shutdown or not accepting connections, 53 insufficient
// resources, 57014 a statement cancelled by its timeout.
const UNAVAILABLE_SQLSTATE = /^(08|53|57P0[1-3]$|57014$)/;
const UNAVAILABLE_MESSAGE =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is not established|the database system is (starting up|shutting down)|terminating connection|Query read timeout/i;

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  driverError?: unknown;
}

/**
 * Whether an error means Postgres is unreachable or overloaded (transient: retry, answer 503)
 * rather than a query or data problem. Reads through TypeORM's QueryFailedError to the pg error.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error as ErrorLike | undefined, depth = 0; current && depth < 3; depth++) {
    if (typeof current.code === 'string' && UNAVAILABLE_SQLSTATE.test(current.code)) return true;
    if (typeof current.code === 'string' && UNAVAILABLE_MESSAGE.test(current.code)) return true;
    if (typeof current.message === 'string' && UNAVAILABLE_MESSAGE.test(current.message)) return true;
    current = current.driverError as ErrorLike | undefined;
  }
  return false;
}
