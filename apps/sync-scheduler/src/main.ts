import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { MicroserviceOptions } from '@nestjs/microservices';
import { natsConnectionOptions } from '@app/messaging/nats/nats-options';
import { NamespacedNatsServer } from '@app/messaging/requests/namespaced-nats';
import { createLogger, NestJsonLogger, readConfigOrExit } from '@app/platform';
import { AppModule } from './app.module';
import { loadSyncSchedulerConfig } from './config/sync-scheduler.config';

async function bootstrap(): Promise<void> {
  const config = readConfigOrExit('sync-scheduler', () => loadSyncSchedulerConfig());
  const logger = createLogger('sync-scheduler', config.LOG_LEVEL);
  try {
    const app = await NestFactory.createMicroservice<MicroserviceOptions>(AppModule, {
      strategy: new NamespacedNatsServer(
        { ...natsConnectionOptions(config, 'sync-scheduler'), queue: 'sync-scheduler' },
        config.NATS_NAMESPACE,
      ),
      logger: new NestJsonLogger(logger),
    });
    app.enableShutdownHooks();
    await app.listen();
    logger.info('sync-scheduler started');
  } catch (error) {
    logger.fatal({ err: error }, 'sync-scheduler failed to start');
    process.exit(1);
  }
}

void bootstrap();
