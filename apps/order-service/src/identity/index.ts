/**
 * Identity's public entry: all that the marketplace (and any later module) may import from it. An
 * ESLint rule (eslint.config.mjs, "module boundaries") refuses an import of anything else under
 * identity/ from the marketplace, and any import of the marketplace from identity.
 *
 * - Who the caller is and what they may do: the request guard (validates a NATS request, loads the
 *   caller, answers 401/403/404 in one shape) and the one access policy.
 * - Organisations and projects as records, read through their services: never their entities or
 *   repositories.
 * - The system as a caller (the end-date scheduler places its Terminate orders as it).
 * - Shared persistence seams, owned here because the marketplace builds on identity and not the
 *   other way round: the unit of work (one transaction, with the gateway's deadline checked before
 *   COMMIT), Postgres constraint errors as domain errors, and the deadline arithmetic.
 */
export { IdentityModule } from './identity.module';

export * from './domain/access-policy';
export {
  denied,
  FORBIDDEN,
  NOT_FOUND,
  RequestGuard,
  type GuardedCaller,
  type GuardedRequest,
} from './services/request-guard.service';

export type { CustomerRecord, ProjectRecord } from './domain/records';
export { CustomerService } from './services/customer.service';
export { ProjectService } from './services/project.service';
export { SystemCaller } from './services/system-caller.service';

// The unit of work and the deadline arithmetic live in libs/messaging (one for every service);
// re-exported here so the marketplace keeps importing its persistence seams from identity.
export {
  UnitOfWork,
  type Transaction,
  assertBeforeDeadline,
  DEADLINE_PASSED,
  DeadlinePassedError,
  msLeft,
  STORE_RESERVE_MS,
} from '@app/messaging';
export { translateDbErrors, type PageRequest } from './repositories/db-errors';
export { DuplicateRowError, ReferencedRowError } from './domain/persistence-errors';
