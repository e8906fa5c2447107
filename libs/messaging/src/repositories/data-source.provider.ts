import type { Provider } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OutboxWriter } from '../outbox/outbox-writer';
import { LOGGER, SERVICE_HEALTH, type ServiceHealth, type ServiceRuntime } from '../runtime/service-runtime';
import { InboxRepository } from '../inbox/repositories/inbox.repository';
import { UnitOfWork } from './unit-of-work';

/** Lets repositories inject the service's one DataSource, opened and migrated at start by the runtime. */
export function dataSourceProvider(runtime: ServiceRuntime): Provider {
  return { provide: DataSource, useValue: runtime.dataSource };
}

/**
 * The narrow collaborators services inject, taken out of the runtime once at bootstrap: the
 * DataSource (for repositories), the unit of work, the outbox writer, the inbox, the logger and the health check. Services and
 * consumers inject these, never the runtime itself.
 */
export function messagingProviders(runtime: ServiceRuntime): Provider[] {
  return [
    dataSourceProvider(runtime),
    { provide: UnitOfWork, useValue: new UnitOfWork(runtime.dataSource) },
    { provide: OutboxWriter, useValue: new OutboxWriter(runtime.outbox, runtime.relay, runtime.topology) },
    { provide: InboxRepository, useValue: runtime.inbox },
    { provide: LOGGER, useValue: runtime.logger },
    { provide: SERVICE_HEALTH, useValue: (() => runtime.health()) satisfies ServiceHealth },
  ];
}
