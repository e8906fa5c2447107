import { Inject, Injectable } from '@nestjs/common';
import type { PowerAction, VmOperationKind } from '@app/contracts';
import { VM_PROVISIONER, type VmProvisioner } from '../../../vcenter/ports/vm-provisioner.port';
import { powerRefusal, STATE_AFTER } from '../../domain/power-rules';
import { VmGone } from '../vm-gone';
import {
  OperationRefused,
  type OperationContext,
  type OperationResult,
  type VmOperationExecutor,
} from '../vm-operation-executor';

/**
 * start, stop, reset, suspend: the precondition checked again against vCenter's live power state
 * (the VM may have changed there since the request, or this is a repeat after a crash); a state
 * already reached is done without a task.
 */
@Injectable()
export class PowerExecutor implements VmOperationExecutor {
  readonly kinds: readonly VmOperationKind[] = ['start', 'stop', 'reset', 'suspend'];

  constructor(@Inject(VM_PROVISIONER) private readonly vcenter: VmProvisioner) {}

  async execute({ operation, connection, short, long }: OperationContext): Promise<OperationResult> {
    const action = operation.kind as PowerAction;
    const state = await this.vcenter.powerState(connection, operation.moref, short);
    if (state === undefined) throw new VmGone();
    if (action !== 'reset' && state === STATE_AFTER[action]) return {};
    const refusal = powerRefusal(action, state);
    if (refusal !== null) throw new OperationRefused(refusal);
    if (action === 'start') await this.vcenter.powerOn(connection, operation.moref, long);
    else await this.vcenter.power(connection, operation.moref, action, long);
    return {};
  }
}
