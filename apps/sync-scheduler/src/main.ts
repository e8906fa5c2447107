import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { MicroserviceOptions } from '@nestjs/microservices';
import { NamespacedNatsServer } from '@app/messaging/requests/namespaced-nats';
import { ConfigError, createLogger, NestJsonLogger } from '@app/platform';
import { AppModule } from './app.module';
import { loadSyncSchedulerConfig } from './config/sync-scheduler.config';

async function bootstrap(): Promise<void> {
  let config;
  try {
    config = loadSyncSchedulerConfig();
  } catch (error) {
    const problems = error instanceof ConfigError ? error.problems : undefined;
    createLogger('sync-scheduler', 'info').fatal(
      { problems },
      error instanceof Error ? error.message : String(error),
    );
    process.exit(1);
  }
  const logger = createLogger('sync-scheduler', config.LOG_LEVEL);
  try {
    const app = await NestFactory.createMicroservice<MicroserviceOptions>(AppModule, {
      strategy: new NamespacedNatsServer(
        { servers: [config.NATS_URL], queue: 'sync-scheduler', name: 'sync-scheduler' },
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
