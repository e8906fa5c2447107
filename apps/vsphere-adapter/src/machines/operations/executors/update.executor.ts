import { Inject, Injectable } from '@nestjs/common';
import type { VmOperationKind } from '@app/contracts';
import { VM_PROVISIONER, type VmProvisioner } from '../../../vcenter/ports/vm-provisioner.port';
import { updateRefusal } from '../../domain/guest-rules';
import { VmGone } from '../vm-gone';
import {
  OperationRefused,
  type OperationContext,
  type OperationResult,
  type VmOperationExecutor,
} from '../vm-operation-executor';

/** update: ReconfigVM_Task with the CPU, cores per socket and RAM asked that differ; powered off only (live). */
@Injectable()
export class UpdateExecutor implements VmOperationExecutor {
  readonly kinds: readonly VmOperationKind[] = ['update'];

  constructor(@Inject(VM_PROVISIONER) private readonly vcenter: VmProvisioner) {}

  async execute({ operation, connection, short, long }: OperationContext): Promise<OperationResult> {
    const vm = await this.vcenter.read(connection, operation.moref, short);
    if (vm === undefined) throw new VmGone();
    const refusal = updateRefusal(vm.runtimeState);
    if (refusal !== null) throw new OperationRefused(refusal);
    const asked = operation.params as { cpu?: number; coresPerSocket?: number; ram?: number };
    const change = {
      cpu: asked.cpu !== undefined && asked.cpu !== vm.cpu ? asked.cpu : undefined,
      coresPerSocket:
        asked.coresPerSocket !== undefined && asked.coresPerSocket !== vm.coresPerSocket
          ? asked.coresPerSocket
          : undefined,
      ram: asked.ram !== undefined && asked.ram !== vm.ram ? asked.ram : undefined,
    };
    if (Object.values(change).some((v) => v !== undefined))
      await this.vcenter.reconfigure(connection, operation.moref, change, long);
    return {};
  }
}
