import { Module, type DynamicModule } from '@nestjs/common';
import { natsConnectionOptions } from '@app/messaging/nats/nats-options';
import { NamespacedNatsClient } from '@app/messaging/requests/namespaced-nats';
import { CONFIG, SERVICES_CLIENT, type GatewayConfig } from './config/gateway.config';
import { EventHub } from './events/event-hub';
import { EventStreamEndpoint } from './events/event-stream.endpoint';
import { FeedReader } from './events/feed-reader';
import { SseMetrics } from './events/sse-metrics';
import { HealthController } from './controllers/health.controller';
import { GatewayMetrics } from './metrics/gateway-metrics';
import { ApiHandler } from './rest/api-handler';
import { CallerResolver } from './rest/caller-resolver';
import { RestRouter } from './rest/rest-router';
import { ServiceRequester } from './services/service-requester';

@Module({})
export class AppModule {
  static register(config: GatewayConfig): DynamicModule {
    return {
      module: AppModule,
      controllers: [HealthController],
      providers: [
        { provide: CONFIG, useValue: config },
        {
          provide: SERVICES_CLIENT,
          useFactory: async () => {
            const client = new NamespacedNatsClient(
              natsConnectionOptions(config, 'gateway'),
              config.NATS_NAMESPACE,
            );
            await client.connect();
            return client;
          },
        },
        ServiceRequester,
        GatewayMetrics,
        CallerResolver,
        ApiHandler,
        FeedReader,
        SseMetrics,
        EventHub,
        EventStreamEndpoint,
        RestRouter,
      ],
    };
  }
}
