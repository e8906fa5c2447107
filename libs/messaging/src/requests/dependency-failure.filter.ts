import { Catch, type RpcExceptionFilter } from '@nestjs/common';
import type { RequestReply } from '@app/contracts';
import type { Logger } from '@app/platform/logging/json-logger';
import { isDatabaseUnavailable } from '@app/platform/persistence/unavailable-database';
import { Observable, of, throwError } from 'rxjs';

/**
 * Every request handler's last resort. A handler that failed because the service's Postgres is away
 * answers 503 naming it at once (the gateway passes it on), never a 500 or a hang; anything else is
 * a bug, logged, and answered as Nest does.
 */
@Catch()
export class DependencyFailureFilter implements RpcExceptionFilter<unknown> {
  constructor(
    private readonly app: string,
    private readonly logger: Logger,
  ) {}

  catch(exception: unknown): Observable<RequestReply<never>> {
    if (isDatabaseUnavailable(exception)) {
      const reason = exception instanceof Error ? exception.message : String(exception);
      this.logger.warn({ reason }, 'request answered 503: PostgreSQL is not available');
      return of({
        status: 'error',
        code: 503,
        detail: `PostgreSQL is not available to the ${this.app}; try again shortly.`,
      });
    }
    this.logger.error({ err: exception }, 'request handler failed');
    return throwError(() => ({ status: 'error', message: 'Internal server error' }));
  }
}
