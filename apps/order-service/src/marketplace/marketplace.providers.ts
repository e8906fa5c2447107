import type { Provider, Type } from '@nestjs/common';
import { natsConnectionOptions } from '@app/messaging/nats/nats-options';
import { NamespacedNatsClient } from '@app/messaging/requests/namespaced-nats';
import { CONFIG } from '../config/config.token';
import type { OrderServiceConfig } from '../config/order-service.config';
import { VsphereIntegrationClient } from './adapters/vsphere-integration.client';
import { CatalogueController } from './controllers/catalogue.controller';
import { ProviderOfferingsController } from './controllers/provider-offerings.controller';
import { SyncTargetsController } from './controllers/sync-targets.controller';
import { INTEGRATION_PORT } from './ports/integration.port';
import { OfferingRepository } from './repositories/offering.repository';
import { PlanRepository } from './repositories/plan.repository';
import { OfferingViews } from './services/offering-views.service';
import { PlanService } from './services/plan.service';
import { ProviderOfferingService } from './services/provider-offering.service';
import { PublicOfferingService } from './services/public-offering.service';

/** The marketplace context of the order service: offerings, plans and (next) orders and resources. */
export const MARKETPLACE_CONTROLLERS: Type[] = [
  ProviderOfferingsController,
  CatalogueController,
  SyncTargetsController,
];

export const MARKETPLACE_PROVIDERS: Provider[] = [
  OfferingRepository,
  PlanRepository,
  OfferingViews,
  ProviderOfferingService,
  PublicOfferingService,
  PlanService,
  {
    provide: INTEGRATION_PORT,
    inject: [CONFIG],
    useFactory: async (config: OrderServiceConfig) => {
      const client = new NamespacedNatsClient(
        natsConnectionOptions(config, 'order-service', 'order-service-to-adapter'),
        config.NATS_NAMESPACE,
      );
      await client.connect();
      return new VsphereIntegrationClient(client);
    },
  },
];
