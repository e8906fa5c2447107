import { Module } from '@nestjs/common';
import { IntegrationModule } from '../integration/integration.module';
import { Vim25VmProvisioner } from '../vcenter/adapters/vim25-vm-provisioner';
import { VM_PROVISIONER } from '../vcenter/ports/vm-provisioner.port';
import { orderSubmittedConsumer } from './controllers/order-submitted.consumer';
import { OrderValidationController } from './controllers/order-validation.controller';
import { VirtualMachineController } from './controllers/virtual-machine.controller';
import { VmDevicesController } from './controllers/vm-devices.controller';
import { DurableVmOperationQueue } from './operations/durable-vm-operation-queue';
import { DEVICE_EXECUTORS } from './operations/devices/device-executors';
import { GuestPowerExecutor } from './operations/executors/guest-power.executor';
import { PowerExecutor } from './operations/executors/power.executor';
import { PullExecutor } from './operations/executors/pull.executor';
import { UpdateExecutor } from './operations/executors/update.executor';
import { VM_OPERATION_EXECUTORS } from './operations/vm-operation-executor';
import { VmOperationQueue } from './operations/vm-operation-queue';
import { VmOperationRunner } from './operations/vm-operation-runner.service';
import { DeviceReconcilerRepository } from './repositories/device-reconciler.repository';
import { PlacementRepository } from './repositories/placement.repository';
import { VirtualMachineRepository } from './repositories/virtual-machine.repository';
import { VmDeviceRepository } from './repositories/vm-device.repository';
import { VmDeviceReconciler } from './repositories/vm-device-reconciler';
import { VmOperationRepository } from './repositories/vm-operation.repository';
import { VmPullStateRepository } from './repositories/vm-pull-state.repository';
import { VmViewRepository } from './repositories/vm-view.repository';
import { OrderExecutionService } from './services/order-execution.service';
import { OrderValidationService } from './services/order-validation.service';
import { VmActionService } from './services/vm-action.service';
import { VmChangeService } from './services/vm-change.service';
import { VmCreationService } from './services/vm-creation.service';
import { VmDevicesService } from './services/vm-devices.service';
import { VmPullService } from './services/vm-pull.service';
import { VmQueryService } from './services/vm-query.service';
import { VmRecordService } from './services/vm-record.service';

/** Day-2 executors: power, guest power, resize and pull, then the disk and adapter ones. */
const EXECUTORS = [PowerExecutor, GuestPowerExecutor, UpdateExecutor, PullExecutor, ...DEVICE_EXECUTORS];

/** The VMs orders make: order validation, deploy, resize and delete, the VMs' records, their
 * REST view, their disks and adapters, and their day-2 operations (queued per VM, run by the
 * runner) and drift pull. */
@Module({
  imports: [IntegrationModule],
  controllers: [OrderValidationController, VirtualMachineController, VmDevicesController],
  providers: [
    PlacementRepository,
    VirtualMachineRepository,
    OrderValidationService,
    OrderExecutionService,
    VmCreationService,
    VmChangeService,
    VmViewRepository,
    VmPullStateRepository,
    VmQueryService,
    VmActionService,
    VmRecordService,
    VmOperationRepository,
    VmOperationRunner,
    VmPullService,
    VmDeviceRepository,
    VmDevicesService,
    { provide: VmOperationQueue, useClass: DurableVmOperationQueue },
    ...EXECUTORS,
    {
      provide: VM_OPERATION_EXECUTORS,
      useFactory: (...executors: unknown[]) => executors,
      inject: EXECUTORS,
    },
    { provide: VmDeviceReconciler, useClass: DeviceReconcilerRepository },
    { provide: VM_PROVISIONER, useClass: Vim25VmProvisioner },
    orderSubmittedConsumer,
  ],
})
export class MachinesModule {}
