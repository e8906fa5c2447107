import { Module } from '@nestjs/common';
import { IntegrationModule } from '../integration/integration.module';
import { Vim25VmProvisioner } from '../vcenter/adapters/vim25-vm-provisioner';
import { VM_PROVISIONER } from '../vcenter/ports/vm-provisioner.port';
import { orderSubmittedConsumer } from './controllers/order-submitted.consumer';
import { OrderValidationController } from './controllers/order-validation.controller';
import { VirtualMachineController } from './controllers/virtual-machine.controller';
import { DEVICE_EXECUTORS } from './operations/devices/device-executors';
import { DeviceReconcilerRepository } from './repositories/device-reconciler.repository';
import { PlacementRepository } from './repositories/placement.repository';
import { VirtualMachineRepository } from './repositories/virtual-machine.repository';
import { VmDeviceRepository } from './repositories/vm-device.repository';
import { VmDeviceReconciler } from './repositories/vm-device-reconciler';
import { VmViewRepository } from './repositories/vm-view.repository';
import { OrderExecutionService } from './services/order-execution.service';
import { OrderValidationService } from './services/order-validation.service';
import { VmChangeService } from './services/vm-change.service';
import { VmCreationService } from './services/vm-creation.service';
import { VmPowerService } from './services/vm-power.service';

/** The VMs orders make: order validation, deploy, resize and delete, the VMs' records, their
 * REST view and power actions. */
@Module({
  imports: [IntegrationModule],
  controllers: [OrderValidationController, VirtualMachineController],
  providers: [
    PlacementRepository,
    VirtualMachineRepository,
    OrderValidationService,
    OrderExecutionService,
    VmCreationService,
    VmChangeService,
    VmViewRepository,
    VmPowerService,
    VmDeviceRepository,
    { provide: VmDeviceReconciler, useClass: DeviceReconcilerRepository },
    // TODO(lead, on merging d2-ops): add VmDevicesController to `controllers` and VmDevicesService
    // here (they need the VmOperationQueue), and these classes to the VM_OPERATION_EXECUTORS array.
    ...DEVICE_EXECUTORS,
    { provide: VM_PROVISIONER, useClass: Vim25VmProvisioner },
    orderSubmittedConsumer,
  ],
})
export class MachinesModule {}
