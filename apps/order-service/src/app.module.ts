import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { messagingProviders, RuntimeLifecycle, SERVICE_RUNTIME, type ServiceRuntime } from '@app/messaging';
import { CONFIG } from './config/config.token';
import type { OrderServiceConfig } from './config/order-service.config';
import { HealthController } from './health.controller';
import { IdentityModule } from './identity/identity.module';
import { MarketplaceModule } from './marketplace/marketplace.module';

/** The configuration, the runtime and what services inject of it (DataSource, unit of work, outbox writer, inbox, logger), for every module. */
@Module({})
class CoreModule {
  static register(config: OrderServiceConfig, runtime: ServiceRuntime): DynamicModule {
    const providers: Provider[] = [
      { provide: CONFIG, useValue: config },
      { provide: SERVICE_RUNTIME, useValue: runtime },
      ...messagingProviders(runtime),
    ];
    return {
      module: CoreModule,
      global: true,
      providers,
      exports: providers.map((provider) => ('provide' in provider ? provider.provide : provider)),
    };
  }
}

/**
 * The order service: identity (users, tokens, organisations, projects, grants, the access policy)
 * and the marketplace (offerings, orders, resources), which builds on identity's exports.
 */
@Module({})
export class AppModule {
  static register(config: OrderServiceConfig, runtime: ServiceRuntime): DynamicModule {
    return {
      module: AppModule,
      imports: [CoreModule.register(config, runtime), IdentityModule, MarketplaceModule],
      controllers: [HealthController],
      providers: [RuntimeLifecycle],
    };
  }
}
