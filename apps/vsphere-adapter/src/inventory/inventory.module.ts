import { Module } from '@nestjs/common';
import { AssignmentsController } from './controllers/assignments.controller';
import { offeringChangedConsumer } from './controllers/offering-changed.consumer';
import { InventoryController } from './controllers/inventory.controller';
import { AssignmentRepository } from './repositories/assignment.repository';
import { InventoryQueryRepository } from './repositories/inventory-query.repository';
import { InventoryWriterRepository } from './repositories/inventory-writer.repository';
import { OfferingStateRepository } from './repositories/offering-state.repository';
import { AssignmentService } from './services/assignment.service';
import { InventoryQueryService } from './services/inventory-query.service';
import { OfferingStateService } from './services/offering-state.service';

/** The imported vCenter inventory, its lists for customers, and the customer assignments. */
@Module({
  controllers: [InventoryController, AssignmentsController],
  providers: [
    InventoryQueryRepository,
    InventoryWriterRepository,
    AssignmentRepository,
    InventoryQueryService,
    AssignmentService,
    OfferingStateRepository,
    OfferingStateService,
    offeringChangedConsumer,
  ],
  exports: [InventoryQueryRepository, InventoryWriterRepository, InventoryQueryService],
})
export class InventoryModule {}
