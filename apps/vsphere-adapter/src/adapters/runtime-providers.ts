import type { Provider } from '@nestjs/common';
import { IdempotencyKeyRepository, IdempotentRequests, LOGGER, type ServiceRuntime } from '@app/messaging';
import { observeVcenterCalls } from '../metrics/vcenter-call-metrics';
import { VmOperationMetrics } from '../metrics/vm-operation-metrics';
import { VmWatchMetrics } from '../metrics/vm-watch-metrics';
import { EventOutbox } from './event-outbox';

export { LOGGER };

/** The adapter's own runtime-built collaborators, beside `messagingProviders` (the DataSource, unit of work, outbox writer, inbox, logger). */
export function runtimeProviders(runtime: ServiceRuntime): Provider[] {
  observeVcenterCalls(runtime.metrics.registry);
  return [
    EventOutbox,
    // The creating POSTs' Idempotency-Keys, kept in the adapter's own schema.
    {
      provide: IdempotentRequests,
      useValue: new IdempotentRequests(new IdempotencyKeyRepository(runtime.dataSource, 'vsphere')),
    },
    { provide: VmOperationMetrics, useValue: new VmOperationMetrics(runtime.metrics.registry) },
    { provide: VmWatchMetrics, useValue: new VmWatchMetrics(runtime.metrics.registry) },
  ];
}
