import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { MicroserviceOptions } from '@nestjs/microservices';
import { natsConnectionOptions } from '@app/messaging/nats/nats-options';
import { waitForNats } from '@app/messaging/nats/wait-for-nats';
import { NamespacedNatsServer } from '@app/messaging/requests/namespaced-nats';
import { createLogger, NestJsonLogger, readConfigOrExit } from '@app/platform';
import { createMetricsRegistry, startMetricsServer } from '@app/platform/metrics';
import { installShutdownDeadline } from '@app/platform/runtime/shutdown-deadline';
import { AppModule } from './app.module';
import { loadSyncSchedulerConfig } from './config/sync-scheduler.config';

async function bootstrap(): Promise<void> {
  const config = readConfigOrExit('sync-scheduler', () => loadSyncSchedulerConfig());
  const logger = createLogger('sync-scheduler', config.LOG_LEVEL);
  try {
    await waitForNats(natsConnectionOptions(config, 'sync-scheduler'), logger);
    const app = await NestFactory.createMicroservice<MicroserviceOptions>(AppModule, {
      strategy: new NamespacedNatsServer(
        { ...natsConnectionOptions(config, 'sync-scheduler'), queue: 'sync-scheduler' },
        config.NATS_NAMESPACE,
        { shutdownGraceMs: config.SHUTDOWN_GRACE_MS },
      ),
      logger: new NestJsonLogger(logger),
    });
    app.enableShutdownHooks();
    installShutdownDeadline(logger, config.SHUTDOWN_GRACE_MS);
    await app.listen();
    const metrics = await startMetricsServer(
      createMetricsRegistry('sync-scheduler'),
      config.METRICS_HOST,
      config.METRICS_PORT,
    );
    logger.info({ metrics: metrics.url }, 'sync-scheduler started');
  } catch (error) {
    logger.fatal({ err: error }, 'sync-scheduler failed to start');
    process.exit(1);
  }
}

void bootstrap();
