import { Inject, Injectable } from '@nestjs/common';
import type { VmOperationKind } from '@app/contracts';
import { CONFIG, type VsphereAdapterConfig } from '../../../config/vsphere-adapter.config';
import { VM_PROVISIONER, type VmProvisioner } from '../../../vcenter/ports/vm-provisioner.port';
import { guestRefusal } from '../../domain/guest-rules';
import { VmGone } from '../vm-gone';
import {
  OperationRefused,
  type OperationContext,
  type OperationResult,
  type VmOperationExecutor,
} from '../vm-operation-executor';

/**
 * shutdown_guest and reboot_guest: need the VM powered on with VMware Tools running (checked again
 * live). vCenter answers before the guest acted, so the end is followed through the property
 * collector: powered off for a shutdown; Tools down then up again for a reboot. A guest that does
 * not get there within VSPHERE_GUEST_POWER_TIMEOUT_MS fails the operation with that.
 */
@Injectable()
export class GuestPowerExecutor implements VmOperationExecutor {
  readonly kinds: readonly VmOperationKind[] = ['shutdown_guest', 'reboot_guest'];

  constructor(
    @Inject(CONFIG) private readonly config: VsphereAdapterConfig,
    @Inject(VM_PROVISIONER) private readonly vcenter: VmProvisioner,
  ) {}

  async execute({ operation, connection, short, long }: OperationContext): Promise<OperationResult> {
    const vm = await this.vcenter.read(connection, operation.moref, short);
    if (vm === undefined) throw new VmGone();
    const shutdown = operation.kind === 'shutdown_guest';
    if (shutdown && vm.runtimeState === 'POWERED_OFF') return {};
    const refusal = guestRefusal(vm);
    if (refusal !== null) throw new OperationRefused(refusal);
    const timeoutMs = this.config.VSPHERE_GUEST_POWER_TIMEOUT_MS;
    const wait = { signal: AbortSignal.any([long.signal, AbortSignal.timeout(timeoutMs)]), timeoutMs };
    await this.vcenter.guestPower(connection, operation.moref, shutdown ? 'shutdown' : 'reboot', short);
    if (shutdown) {
      await this.vcenter.waitForGuest(
        connection,
        operation.moref,
        (s) => s.runtimeState === 'POWERED_OFF',
        wait,
      );
      return {};
    }
    let wentDown = false;
    await this.vcenter.waitForGuest(
      connection,
      operation.moref,
      (s) => {
        if (s.toolsState === 'NOT_RUNNING') wentDown = true;
        return wentDown && s.toolsState === 'RUNNING';
      },
      wait,
    );
    return {};
  }
}
