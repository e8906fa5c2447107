import 'reflect-metadata';
import type { Server } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { natsConnectionOptions } from '@app/messaging/nats/nats-options';
import { waitForNats } from '@app/messaging/nats/wait-for-nats';
import { createLogger, NestJsonLogger, readConfigOrExit } from '@app/platform';
import { startMetricsServer } from '@app/platform/metrics';
import { installProcessGuards } from '@app/platform/runtime/process-guards';
import { installShutdownDeadline } from '@app/platform/runtime/shutdown-deadline';
import { AppModule } from './app.module';
import { GatewayMetrics } from './metrics/gateway-metrics';
import { loadGatewayConfig } from './config/gateway.config';
import { hardenServer, hygieneMiddleware } from './rest/http-hygiene';
import type { ExpressApp } from './rest/http-types';

async function bootstrap(): Promise<void> {
  const config = readConfigOrExit('gateway', () => loadGatewayConfig());
  const logger = createLogger('gateway', config.LOG_LEVEL);
  installProcessGuards(logger);
  try {
    await waitForNats(natsConnectionOptions(config, 'gateway'), logger);
    const app = await NestFactory.create(AppModule.register(config), {
      logger: new NestJsonLogger(logger),
      // The REST layer reads bodies itself, so a malformed one is a clean 400 rather than Express's HTML error.
      bodyParser: false,
      // A shutdown ends open connections rather than waiting on a client that never finishes.
      forceCloseConnections: true,
    });
    app.use(app.get(GatewayMetrics).middleware);
    app.enableShutdownHooks();
    // HTTP settings, before any route: no framework banner, security headers and request bounds
    // on every answer, JSON answers to what Node refuses before a request exists.
    const express = app.getHttpAdapter().getInstance() as ExpressApp;
    express.disable('x-powered-by');
    express.use(hygieneMiddleware);
    hardenServer(app.getHttpServer() as Server);
    installShutdownDeadline(logger, config.SHUTDOWN_GRACE_MS);
    await app.listen(config.GATEWAY_PORT, config.GATEWAY_HOST);
    // Apart from the public port, as every service serves it: a scraper inside the deployment
    // reads it, the internet does not.
    const metrics = await startMetricsServer(
      app.get(GatewayMetrics).registry,
      config.METRICS_HOST,
      config.METRICS_PORT,
    );
    logger.info({ url: await app.getUrl(), metrics: metrics.url }, 'gateway listening');
  } catch (error) {
    logger.fatal({ err: error }, 'gateway failed to start');
    process.exit(1);
  }
}

void bootstrap();
