import 'reflect-metadata';
import { Logger as NestLogger } from '@nestjs/common';
import pino from 'pino';
import { Registry } from 'prom-client';
import { createLogger, NestJsonLogger, readConfigOrExit } from '@app/platform';
import { createServiceDataSource, migrate } from '@app/platform/persistence/data-source';
import { NamespacedNatsClient, natsConnectionOptions, OutboxWriter, ServiceRuntime } from '@app/messaging';
import { orderServiceDefinition } from './order-service.definition';
import { UnitOfWork } from './identity';
import { VsphereVmSizesClient } from './marketplace/adapters/vsphere-vm-sizes.client';
import { EventOutbox } from './marketplace/repositories/event-outbox.repository';
import { OrderViewRepository } from './marketplace/repositories/order-view.repository';
import { QuotaRepository } from './marketplace/repositories/quota.repository';
import { ResourceRepository } from './marketplace/repositories/resource.repository';
import { QuotaRecountService } from './marketplace/services/quota-recount.service';
import { VmLimitsService } from './marketplace/services/vm-limits.service';

/**
 * `npm run quotas:recount [-- --dry-run]`: compares each VMware resource's limits and backend_gone
 * with its VM as the vsphere-adapter recorded it and repairs those that differ (see
 * QuotaRecountService), against DATABASE_URL and NATS as the order service (the adapter must run).
 * Prints one JSON line, `{checked, changed: [{resource_uuid, before, after}], dry_run}`; exits 1
 * with the reason on stderr when it could not finish (what it repaired before stays repaired).
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const unknown = args.filter((arg) => arg !== '--dry-run');
  if (unknown.length > 0) {
    process.stderr.write(`usage: quotas:recount [--dry-run]: unknown argument ${unknown.join(' ')}\n`);
    process.exit(2);
  }
  const dryRun = args.includes('--dry-run');
  const { app, schema } = orderServiceDefinition;
  const config = readConfigOrExit(app, orderServiceDefinition.loadConfig);
  // stdout carries the one JSON line of the report: every log goes to stderr (Nest's NATS client's too).
  const logger = createLogger('quotas-recount', config.LOG_LEVEL, pino.destination({ dest: 2, sync: true }));
  NestLogger.overrideLogger(new NestJsonLogger(logger));
  const dataSource = createServiceDataSource({
    url: config.DATABASE_URL,
    schema,
    entities: orderServiceDefinition.entities,
    migrations: orderServiceDefinition.migrations,
    applicationName: 'quotas-recount',
    poolSize: 2,
  });
  await dataSource.initialize();
  let runtime: ServiceRuntime | undefined;
  const adapter = new NamespacedNatsClient(
    natsConnectionOptions(config, app, 'quotas-recount-to-adapter'),
    config.NATS_NAMESPACE,
  );
  try {
    await migrate(dataSource, schema);
    // The service's runtime for its outbox (the events of repaired resources), without its timers:
    // the relay is woken once after the work and stopped after that pass (the service's own relay
    // publishes what this pass leaves).
    runtime = await ServiceRuntime.open({
      app,
      logger,
      dataSource,
      schema,
      nats: natsConnectionOptions(config, app, 'quotas-recount'),
      namespace: config.NATS_NAMESPACE,
      outboxSweepMs: config.OUTBOX_SWEEP_MS,
      relayEnabled: config.OUTBOX_RELAY_ENABLED,
      eventHistoryMs: config.EVENT_HISTORY_MS,
      ownedStreams: (topology) => orderServiceDefinition.ownedStreams(topology, config),
      consumedStreams: (topology) => orderServiceDefinition.consumedStreams(topology, config),
      // Nobody scrapes a command: its messaging metrics are kept in a registry of its own.
      registry: new Registry(),
    });
    await adapter.connect();
    const quotas = new QuotaRepository(dataSource);
    const events = new EventOutbox(new OutboxWriter(runtime.outbox, runtime.relay, runtime.topology));
    const limits = new VmLimitsService(
      runtime.inbox,
      new ResourceRepository(),
      new OrderViewRepository(dataSource),
      events,
      quotas,
    );
    const recount = new QuotaRecountService(
      new VsphereVmSizesClient(adapter),
      limits,
      new UnitOfWork(dataSource),
      events,
    );
    const report = await recount.recount({ dryRun });
    process.stdout.write(`${JSON.stringify(report)}\n`);
  } finally {
    await adapter.close();
    if (runtime) await runtime.close();
    else await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`quotas:recount failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
