import { randomUUID } from 'node:crypto';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import type { DataSource } from 'typeorm';
import { OrderErredEvent, type OrderErred } from '@app/contracts';
import { createServiceDataSource } from '@app/platform/persistence/data-source';
import { ensureStream } from '../src/jetstream/ensure-topology';
import { OutboxRepository } from '../src/outbox/repositories/outbox.repository';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database';
import { createTestNats, type TestNats } from '../../../test/support/test-nats';

export interface MessagingFixture {
  db: TestDatabase;
  dataSource: DataSource;
  nats: TestNats;
  js: JetStreamClient;
  outbox: OutboxRepository;
  close(): Promise<void>;
}

/** A database and a NATS namespace of the suite's own, with the vsphere stream created. */
export async function openMessagingFixture(label: string): Promise<MessagingFixture> {
  const db = await createTestDatabase(label);
  const dataSource = createServiceDataSource({
    url: db.url,
    schema: 'vsphere',
    entities: [],
    migrations: [],
    applicationName: `test-${label}`,
  });
  await dataSource.initialize();
  const nats = await createTestNats(label);
  await ensureStream(nats.jsm, { ...nats.topology.streams.vsphere, maxAgeMs: 3_600_000, replicas: 1 });
  return {
    db,
    dataSource,
    nats,
    js: jetstream(nats.nc),
    outbox: new OutboxRepository(dataSource, 'vsphere'),
    close: async () => {
      await dataSource.destroy();
      await nats.close();
      await db.drop();
    },
  };
}

export function erred(overrides: Partial<OrderErred> = {}): OrderErred {
  return {
    orderUuid: randomUUID(),
    marketplaceResourceUuid: randomUUID(),
    errorMessage: 'vCenter said no',
    ...overrides,
  };
}

export { OrderErredEvent };
