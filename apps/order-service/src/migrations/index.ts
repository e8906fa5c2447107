import { CreateOrders1764480000000 } from './1764480000000-create-orders';
import { CreateIdentity1764480000002 } from './1764480000002-create-identity';
import { OutboxOrdering1764480000011 } from './1764480000011-outbox-ordering';
import { CreateCatalogue1764480000020 } from './1764480000020-create-catalogue';
import { PasswordsAndLoginThrottle1764480000030 } from './1764480000030-passwords-and-login-throttle';
import { OrderFlow1764480000040 } from './1764480000040-order-flow';
import { OrderProjectReferences1764480000041 } from './1764480000041-order-project-references';
import { ResourceLimitsObserved1764480000050 } from './1764480000050-resource-limits-observed';
import { IdempotencyKeys1764480000100 } from './1764480000100-idempotency-keys';
import { Quotas1764480000140 } from './1764480000140-quotas';
import { EndDates1764480000141 } from './1764480000141-end-dates';
import { CostQuota1764480000142 } from './1764480000142-cost-quota';
import { QuotaReservations1764480000200 } from './1764480000200-quota-reservations';

/** Every migration of the `marketplace` schema, in order. Listed by hand so builds never depend on globs. */
export const MARKETPLACE_MIGRATIONS = [
  CreateOrders1764480000000,
  CreateIdentity1764480000002,
  OutboxOrdering1764480000011,
  CreateCatalogue1764480000020,
  PasswordsAndLoginThrottle1764480000030,
  OrderFlow1764480000040,
  OrderProjectReferences1764480000041,
  ResourceLimitsObserved1764480000050,
  IdempotencyKeys1764480000100,
  Quotas1764480000140,
  EndDates1764480000141,
  CostQuota1764480000142,
  QuotaReservations1764480000200,
];
