import type { Provider, Type } from '@nestjs/common';
import { natsConnectionOptions } from '@app/messaging/nats/nats-options';
import { NamespacedNatsClient } from '@app/messaging/requests/namespaced-nats';
import { CONFIG } from '../config/config.token';
import type { OrderServiceConfig } from '../config/order-service.config';
import { VsphereIntegrationClient } from './adapters/vsphere-integration.client';
import { VsphereOrderValidationClient } from './adapters/vsphere-order-validation.client';
import { CatalogueController } from './controllers/catalogue.controller';
import { MarketplaceOrdersController } from './controllers/orders.controller';
import { MarketplaceResourcesController } from './controllers/resources.controller';
import { ProviderOfferingsController } from './controllers/provider-offerings.controller';
import { SyncTargetsController } from './controllers/sync-targets.controller';
import { INTEGRATION_PORT } from './ports/integration.port';
import { ORDER_VALIDATION_PORT } from './ports/order-validation.port';
import { OfferingRepository } from './repositories/offering.repository';
import { OrderViewRepository } from './repositories/order-view.repository';
import { PlanRepository } from './repositories/plan.repository';
import { ResourceRepository } from './repositories/resource.repository';
import { OfferingViews } from './services/offering-views.service';
import { OrderPlacementService } from './services/order-placement.service';
import { OrderQueryService } from './services/order-queries.service';
import { OrderReviewService } from './services/order-review.service';
import { OrderTransitions } from './services/order-transitions.service';
import { PlanService } from './services/plan.service';
import { ProviderOfferingService } from './services/provider-offering.service';
import { PublicOfferingService } from './services/public-offering.service';

/** The marketplace context of the order service: offerings, plans and (next) orders and resources. */
export const MARKETPLACE_CONTROLLERS: Type[] = [
  ProviderOfferingsController,
  CatalogueController,
  SyncTargetsController,
  MarketplaceOrdersController,
  MarketplaceResourcesController,
];

/** One NATS connection to the vSphere adapter, shared by the integration and order-validation clients. */
const ADAPTER_NATS = Symbol('AdapterNats');

export const MARKETPLACE_PROVIDERS: Provider[] = [
  OfferingRepository,
  PlanRepository,
  OfferingViews,
  ProviderOfferingService,
  PublicOfferingService,
  PlanService,
  ResourceRepository,
  OrderViewRepository,
  OrderTransitions,
  OrderPlacementService,
  OrderReviewService,
  OrderQueryService,
  {
    provide: ADAPTER_NATS,
    inject: [CONFIG],
    useFactory: async (config: OrderServiceConfig) => {
      const client = new NamespacedNatsClient(
        natsConnectionOptions(config, 'order-service', 'order-service-to-adapter'),
        config.NATS_NAMESPACE,
      );
      await client.connect();
      return client;
    },
  },
  {
    // Closes the shared connection at shutdown.
    provide: INTEGRATION_PORT,
    inject: [ADAPTER_NATS],
    useFactory: (client: NamespacedNatsClient) => new VsphereIntegrationClient(client),
  },
  {
    provide: ORDER_VALIDATION_PORT,
    inject: [ADAPTER_NATS],
    useFactory: (client: NamespacedNatsClient) => new VsphereOrderValidationClient(client),
  },
];
