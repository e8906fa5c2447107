import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { createLogger, NestJsonLogger, readConfigOrExit } from '@app/platform';
import { AppModule } from './app.module';
import { loadGatewayConfig } from './config/gateway.config';

async function bootstrap(): Promise<void> {
  const config = readConfigOrExit('gateway', () => loadGatewayConfig());
  const logger = createLogger('gateway', config.LOG_LEVEL);
  try {
    const app = await NestFactory.create(AppModule.register(config), {
      logger: new NestJsonLogger(logger),
      // The REST layer reads bodies itself, so a malformed one is a clean 400 rather than Express's HTML error.
      bodyParser: false,
    });
    app.enableShutdownHooks();
    await app.listen(config.GATEWAY_PORT, config.GATEWAY_HOST);
    logger.info({ url: await app.getUrl() }, 'gateway listening');
  } catch (error) {
    logger.fatal({ err: error }, 'gateway failed to start');
    process.exit(1);
  }
}

void bootstrap();
