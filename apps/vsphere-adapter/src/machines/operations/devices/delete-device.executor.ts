import { Inject, Injectable } from '@nestjs/common';
import type { VmOperationKind } from '@app/contracts';
import { VM_PROVISIONER, type VmProvisioner } from '../../../vcenter/ports/vm-provisioner.port';
import { VmDeviceRepository, type DeviceTable } from '../../repositories/vm-device.repository';
import type { OperationContext, OperationResult, VmOperationExecutor } from '../vm-operation-executor';
import { deviceOf } from './operation-params';

/**
 * Removes a disk (and deletes its file) or an adapter. A device vCenter no longer has (removed
 * there directly) is the outcome asked for: the operation succeeds and the read-back that follows
 * deletes the row, as Waldur does for an adapter already absent.
 */
abstract class DeleteDeviceExecutor implements VmOperationExecutor {
  abstract readonly kinds: readonly VmOperationKind[];
  protected abstract readonly table: DeviceTable;

  constructor(
    protected readonly vcenter: VmProvisioner,
    private readonly devices: VmDeviceRepository,
  ) {}

  async execute({ operation, connection, short, long }: OperationContext): Promise<OperationResult> {
    const key = await this.devices.deviceKey(this.table, deviceOf(operation, this.table));
    if (key === undefined || key === null) return {};
    const vm = await this.vcenter.read(connection, operation.moref, short);
    const present = this.table === 'disk' ? vm?.disks : vm?.nics;
    if (present === undefined || !present.some((d) => d.key === key)) return {};
    await this.remove(connection, operation.moref, key, long);
    return {};
  }

  protected abstract remove(
    connection: OperationContext['connection'],
    moref: string,
    key: number,
    options: OperationContext['long'],
  ): Promise<void>;
}

/** `delete_disk`: ReconfigVM_Task remove with fileOperation=destroy (the VMDK goes too). */
@Injectable()
export class DeleteDiskExecutor extends DeleteDeviceExecutor {
  readonly kinds = ['delete_disk'] as const;
  protected readonly table = 'disk';

  constructor(@Inject(VM_PROVISIONER) vcenter: VmProvisioner, devices: VmDeviceRepository) {
    super(vcenter, devices);
  }

  protected remove(...args: Parameters<DeleteDeviceExecutor['remove']>): Promise<void> {
    return this.vcenter.removeDisk(...args);
  }
}

/** `delete_port`: ReconfigVM_Task remove of the adapter. */
@Injectable()
export class DeletePortExecutor extends DeleteDeviceExecutor {
  readonly kinds = ['delete_port'] as const;
  protected readonly table = 'port';

  constructor(@Inject(VM_PROVISIONER) vcenter: VmProvisioner, devices: VmDeviceRepository) {
    super(vcenter, devices);
  }

  protected remove(...args: Parameters<DeleteDeviceExecutor['remove']>): Promise<void> {
    return this.vcenter.removeNic(...args);
  }
}
