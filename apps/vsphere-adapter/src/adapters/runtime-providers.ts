import type { Provider } from '@nestjs/common';
import { InboxRepository, type ServiceRuntime } from '@app/messaging';
import { observeVcenterCalls } from '../metrics/vcenter-call-metrics';
import { VmOperationMetrics } from '../metrics/vm-operation-metrics';
import { EventOutbox } from './event-outbox';

/** The service's logger (pino), for services that log. */
export const LOGGER = Symbol('Logger');

/** The few runtime collaborators the adapter's services inject, instead of the whole runtime. */
export function runtimeProviders(runtime: ServiceRuntime): Provider[] {
  observeVcenterCalls(runtime.metrics.registry);
  return [
    { provide: LOGGER, useValue: runtime.logger },
    { provide: EventOutbox, useValue: new EventOutbox(runtime.outbox, runtime.relay, runtime.topology) },
    { provide: InboxRepository, useValue: runtime.inbox },
    { provide: VmOperationMetrics, useValue: new VmOperationMetrics(runtime.metrics.registry) },
  ];
}
