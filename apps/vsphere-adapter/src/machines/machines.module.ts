import { Module } from '@nestjs/common';
import { IntegrationModule } from '../integration/integration.module';
import { Vim25VmProvisioner } from '../vcenter/adapters/vim25-vm-provisioner';
import { Vim25VmSnapshots } from '../vcenter/adapters/vim25-vm-snapshots';
import { Vim25VmStats } from '../vcenter/adapters/vim25-vm-stats';
import { Vim25VmWatchSource } from '../vcenter/adapters/vim25-vm-watch';
import { VM_PROVISIONER } from '../vcenter/ports/vm-provisioner.port';
import { VM_SNAPSHOTS } from '../vcenter/ports/vm-snapshots.port';
import { VM_STATS_SOURCE } from '../vcenter/ports/vm-stats.port';
import { VM_WATCH_SOURCE } from '../vcenter/ports/vm-watch.port';
import { orderSubmittedConsumer } from './controllers/order-submitted.consumer';
import { OrderValidationController } from './controllers/order-validation.controller';
import { VirtualMachineController } from './controllers/virtual-machine.controller';
import { VmDevicesController } from './controllers/vm-devices.controller';
import { VmSnapshotsController } from './controllers/vm-snapshots.controller';
import { VmSizesController } from './controllers/vm-sizes.controller';
import { VmStatsController } from './controllers/vm-stats.controller';
import { DurableVmOperationQueue } from './operations/durable-vm-operation-queue';
import { DEVICE_EXECUTORS } from './operations/devices/device-executors';
import { GuestPowerExecutor } from './operations/executors/guest-power.executor';
import { PowerExecutor } from './operations/executors/power.executor';
import { PullExecutor } from './operations/executors/pull.executor';
import { SnapshotExecutor } from './operations/executors/snapshot.executor';
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
import { VmSnapshotRepository } from './repositories/vm-snapshot.repository';
import { VmViewRepository } from './repositories/vm-view.repository';
import { VmWatchStateRepository } from './repositories/vm-watch-state.repository';
import { OrderExecutionService } from './services/order-execution.service';
import { OrderValidationService } from './services/order-validation.service';
import { VmActionService } from './services/vm-action.service';
import { VmChangeService } from './services/vm-change.service';
import { VmCreationService } from './services/vm-creation.service';
import { VmDevicesService } from './services/vm-devices.service';
import { VmQuotaService } from './services/vm-quota.service';
import { VmPullService } from './services/vm-pull.service';
import { VmQueryService } from './services/vm-query.service';
import { VmRecordService } from './services/vm-record.service';
import { VmSnapshotsService } from './services/vm-snapshots.service';
import { VmStatsService } from './services/vm-stats.service';
import { VmUpdateApplier } from './services/vm-update-applier.service';
import { VmWatchService } from './services/vm-watch.service';

/** Day-2 executors: power, guest power, resize and pull, the disk and adapter ones, snapshots. */
const EXECUTORS = [
  PowerExecutor,
  GuestPowerExecutor,
  UpdateExecutor,
  PullExecutor,
  ...DEVICE_EXECUTORS,
  SnapshotExecutor,
];

/** The VMs orders make: order validation, deploy, resize and delete, the VMs' records, their
 * REST view, their disks and adapters, and their day-2 operations (queued per VM, run by the
 * runner), the live subscription to vCenter and the drift pull. */
@Module({
  imports: [IntegrationModule],
  controllers: [
    OrderValidationController,
    VirtualMachineController,
    VmDevicesController,
    VmSnapshotsController,
    VmStatsController,
    VmSizesController,
  ],
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
    VmWatchStateRepository,
    VmUpdateApplier,
    VmWatchService,
    VmDeviceRepository,
    VmDevicesService,
    VmQuotaService,
    VmSnapshotRepository,
    VmSnapshotsService,
    VmStatsService,
    { provide: VmOperationQueue, useClass: DurableVmOperationQueue },
    ...EXECUTORS,
    {
      provide: VM_OPERATION_EXECUTORS,
      useFactory: (...executors: unknown[]) => executors,
      inject: EXECUTORS,
    },
    { provide: VmDeviceReconciler, useClass: DeviceReconcilerRepository },
    Vim25VmProvisioner,
    { provide: VM_PROVISIONER, useExisting: Vim25VmProvisioner },
    { provide: VM_WATCH_SOURCE, useClass: Vim25VmWatchSource },
    Vim25VmSnapshots,
    { provide: VM_SNAPSHOTS, useExisting: Vim25VmSnapshots },
    Vim25VmStats,
    { provide: VM_STATS_SOURCE, useExisting: Vim25VmStats },
    orderSubmittedConsumer,
  ],
  exports: [VmWatchService],
})
export class MachinesModule {}
