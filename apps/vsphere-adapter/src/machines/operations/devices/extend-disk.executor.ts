import { Inject, Injectable } from '@nestjs/common';
import { VM_PROVISIONER, type VmProvisioner } from '../../../vcenter/ports/vm-provisioner.port';
import { DEVICE_MESSAGES } from '../../domain/device-rules';
import { VmDeviceRepository } from '../../repositories/vm-device.repository';
import {
  OperationRefused,
  type OperationContext,
  type OperationResult,
  type VmOperationExecutor,
} from '../vm-operation-executor';
import { deviceOf, numberParam, VM_GONE } from './operation-params';

/**
 * `extend_disk`: grows the disk to `params.size` MiB, while the VM runs too. Checked live first: the
 * disk may have been removed or grown in vCenter since the request was accepted.
 */
@Injectable()
export class ExtendDiskExecutor implements VmOperationExecutor {
  readonly kinds = ['extend_disk'] as const;

  constructor(
    @Inject(VM_PROVISIONER) private readonly vcenter: VmProvisioner,
    private readonly devices: VmDeviceRepository,
  ) {}

  async execute({ operation, connection, short, long }: OperationContext): Promise<OperationResult> {
    const size = numberParam(operation, 'size');
    const key = await this.devices.deviceKey('disk', deviceOf(operation, 'disk'));
    if (key === undefined) throw new OperationRefused('The disk no longer exists.');
    if (key === null) throw new OperationRefused('The disk has not been created in vCenter.');
    const vm = await this.vcenter.read(connection, operation.moref, short);
    if (vm === undefined) throw new OperationRefused(VM_GONE);
    const disk = vm.disks.find((d) => d.key === key);
    if (disk === undefined) throw new OperationRefused('The disk no longer exists in vCenter.');
    if (size <= disk.sizeMiB) throw new OperationRefused(DEVICE_MESSAGES.notLarger(disk.sizeMiB));
    await this.vcenter.extendDisk(connection, operation.moref, key, size, long);
    return {};
  }
}
