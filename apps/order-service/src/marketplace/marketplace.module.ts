import { Module, type Provider, type Type } from '@nestjs/common';
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
import { OrderPlacementRepository } from './repositories/order-placement.repository';
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
import { ServiceSettingsService } from './services/service-settings.service';
import { QuotaRepository } from './repositories/quota.repository';
import { QuotaService } from './services/quota.service';
import { QuotasController } from './controllers/quotas.controller';
import { QuotaReservationService } from './services/quota-reservation.service';
import { QuotaReservationsController } from './controllers/quota-reservations.controller';
import { VsphereVmPowerClient } from './adapters/vsphere-vm-power.client';
import { EndDateService, VM_POWER } from './services/end-date.service';
import { EndDatesController } from './controllers/end-dates.controller';
import { EndDateRepository } from './repositories/end-date.repository';
import { IdentityModule } from '../identity';
import { orderOutcomesConsumer } from './controllers/order-outcomes.consumer';
import { OwnerViewsController } from './controllers/owner-views.controller';
import { vmChangesConsumer } from './controllers/vm-changes.consumer';
import { OfferingEntity } from './entities/offering.entity';
import { OrderEntity } from './entities/order.entity';
import { PlanPriceEntity } from './entities/plan-price.entity';
import { PlanEntity } from './entities/plan.entity';
import { ResourceEntity } from './entities/resource.entity';
import { EventOutbox } from './repositories/event-outbox.repository';
import { IdempotencyKeyRepository } from './repositories/idempotency-key.repository';
import { OrderRepository } from './repositories/order.repository';
import { IdempotentRequests } from './services/idempotent-requests.service';
import { OrderOutcomeService } from './services/order-outcome.service';
import { VmLimitsService } from './services/vm-limits.service';

/** The tables the marketplace owns, for the order service's data source. */
export const MARKETPLACE_ENTITIES = [
  OfferingEntity,
  PlanEntity,
  PlanPriceEntity,
  OrderEntity,
  ResourceEntity,
];

/** The marketplace's NATS request handlers (core NATS, request-reply from the gateway). */
const MARKETPLACE_CONTROLLERS: Type[] = [
  ProviderOfferingsController,
  CatalogueController,
  SyncTargetsController,
  MarketplaceOrdersController,
  MarketplaceResourcesController,
  QuotasController,
  QuotaReservationsController,
  EndDatesController,
  OwnerViewsController,
];

/** One NATS connection to the vSphere adapter, shared by the integration and order-validation clients. */
const ADAPTER_NATS = Symbol('AdapterNats');

const MARKETPLACE_PROVIDERS: Provider[] = [
  OfferingRepository,
  PlanRepository,
  OfferingViews,
  ProviderOfferingService,
  PublicOfferingService,
  ServiceSettingsService,
  PlanService,
  ResourceRepository,
  OrderViewRepository,
  OrderPlacementRepository,
  OrderTransitions,
  OrderPlacementService,
  OrderReviewService,
  OrderQueryService,
  QuotaRepository,
  QuotaService,
  QuotaReservationService,
  EndDateRepository,
  EndDateService,
  OrderRepository,
  EventOutbox,
  IdempotencyKeyRepository,
  IdempotentRequests,
  OrderOutcomeService,
  VmLimitsService,
  // JetStream consumers: the adapters' order outcomes, and the VMs' changes seen in vCenter.
  orderOutcomesConsumer,
  vmChangesConsumer,
  {
    provide: VM_POWER,
    inject: [ADAPTER_NATS],
    useFactory: (client: NamespacedNatsClient) => new VsphereVmPowerClient(client),
  },
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

/**
 * The marketplace context of the order service: offerings and plans, orders (placed, reviewed,
 * moved through their states by the adapters' outcomes), resources, quotas, end dates and the
 * idempotency of creating requests, and the events they publish. It reaches identity only through
 * what identity exports (`../identity/index.ts`); nothing is exported: the app's other parts
 * reach it over NATS.
 */
@Module({
  imports: [IdentityModule],
  controllers: MARKETPLACE_CONTROLLERS,
  providers: MARKETPLACE_PROVIDERS,
})
export class MarketplaceModule {}
