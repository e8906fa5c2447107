import { Inject, Injectable } from '@nestjs/common';
import { VM_PROVISIONER, type VmProvisioner } from '../../../vcenter/ports/vm-provisioner.port';
import type { OperationContext, OperationResult, VmOperationExecutor } from '../vm-operation-executor';
import { numberParam } from './operation-params';

/**
 * `create_disk`: a thin disk of `params.size` MiB with the VM's files; the new device key binds the
 * row the request inserted. A failure (no free SCSI unit, the VM gone, vCenter's refusal) fails the
 * operation with vCenter's message, so the keyless row turns Erred and can be destroyed.
 */
@Injectable()
export class CreateDiskExecutor implements VmOperationExecutor {
  readonly kinds = ['create_disk'] as const;

  constructor(@Inject(VM_PROVISIONER) private readonly vcenter: VmProvisioner) {}

  async execute({ operation, connection, long }: OperationContext): Promise<OperationResult> {
    const size = numberParam(operation, 'size');
    return { createdDeviceKey: await this.vcenter.addDisk(connection, operation.moref, size, long) };
  }
}
