import { Module } from '@nestjs/common';
import { IntegrationModule } from '../integration/integration.module';
import { Vim25VmProvisioner } from '../vcenter/adapters/vim25-vm-provisioner';
import { VM_PROVISIONER } from '../vcenter/ports/vm-provisioner.port';
import { orderSubmittedConsumer } from './controllers/order-submitted.consumer';
import { OrderValidationController } from './controllers/order-validation.controller';
import { PlacementRepository } from './repositories/placement.repository';
import { VirtualMachineRepository } from './repositories/virtual-machine.repository';
import { OrderExecutionService } from './services/order-execution.service';
import { OrderValidationService } from './services/order-validation.service';
import { VmChangeService } from './services/vm-change.service';
import { VmCreationService } from './services/vm-creation.service';

/** The VMs orders make: order validation, deploy, resize and delete, and the VMs' records. */
@Module({
  imports: [IntegrationModule],
  controllers: [OrderValidationController],
  providers: [
    PlacementRepository,
    VirtualMachineRepository,
    OrderValidationService,
    OrderExecutionService,
    VmCreationService,
    VmChangeService,
    { provide: VM_PROVISIONER, useClass: Vim25VmProvisioner },
    orderSubmittedConsumer,
  ],
})
export class MachinesModule {}
