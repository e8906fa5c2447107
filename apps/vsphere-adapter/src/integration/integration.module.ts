import { Module } from '@nestjs/common';
import { InventoryModule } from '../inventory/inventory.module';
import { Vim25InventorySource } from '../vcenter/adapters/vim25-inventory-source';
import { INVENTORY_SOURCE } from '../vcenter/ports/inventory-source.port';
import { IntegrationController } from './controllers/integration.controller';
import { syncRequestedConsumer } from './controllers/sync-requested.consumer';
import { IntegrationRepository } from './repositories/integration.repository';
import { SyncLockRepository } from './repositories/sync-lock.repository';
import { CredentialsService } from './services/credentials.service';
import { EndpointGuard } from './services/endpoint-guard.service';
import { IntegrationService } from './services/integration.service';
import { SyncCoordinator } from './services/sync-coordinator.service';
import { SyncRequestService } from './services/sync-request.service';
import { SynchronisationService } from './services/synchronisation.service';
import { VcenterAccessService } from './services/vcenter-access.service';

/** Each offering's vCenter credentials, their state, and the synchronisations that fill the inventory. */
@Module({
  imports: [InventoryModule],
  controllers: [IntegrationController],
  providers: [
    IntegrationRepository,
    SyncLockRepository,
    CredentialsService,
    EndpointGuard,
    IntegrationService,
    SynchronisationService,
    SyncCoordinator,
    SyncRequestService,
    VcenterAccessService,
    { provide: INVENTORY_SOURCE, useClass: Vim25InventorySource },
    syncRequestedConsumer,
  ],
  exports: [CredentialsService, SyncCoordinator, SyncLockRepository, VcenterAccessService],
})
export class IntegrationModule {}
