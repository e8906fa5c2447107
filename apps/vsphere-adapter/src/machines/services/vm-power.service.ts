import { Inject, Injectable } from '@nestjs/common';
import {
  ok,
  refuse,
  type Page,
  type PowerAction,
  type PowerOperationView,
  type RequestReply,
  type VirtualMachineView,
  type VmRuntimeState,
  type VsphereCaller,
  VmChangedEvent,
} from '@app/contracts';
import { EventOutbox } from '../../adapters/event-outbox';
import { CONFIG, type VsphereAdapterConfig } from '../../config/vsphere-adapter.config';
import { describeVcenterError } from '../../integration/domain/vcenter-error-message';
import { VcenterAccessService } from '../../integration/services/vcenter-access.service';
import { UnitOfWork } from '../../repositories/unit-of-work';
import { NOT_FOUND } from '../../services/request-guard.service';
import { VM_PROVISIONER, type VmProvisioner } from '../../vcenter/ports/vm-provisioner.port';
import { BusyGuard } from '../domain/busy-guard';
import { powerRefusal, STATE_AFTER } from '../domain/power-rules';
import { VmViewRepository, type VmVisibility } from '../repositories/vm-view.repository';

export const BUSY = 'Another operation is in progress on this virtual machine.';

const visibilityOf = (caller: VsphereCaller): VmVisibility =>
  caller.is_staff ? { all: true } : { all: false, customerUuids: caller.customer_uuids };

/**
 * The recorded VMs for the gateway, and their power actions: the precondition is checked against
 * vCenter's state (not only ours: the VM may have changed there), one operation per VM at a time.
 */
@Injectable()
export class VmPowerService {
  private readonly busy = new BusyGuard();

  constructor(
    @Inject(CONFIG) private readonly config: VsphereAdapterConfig,
    @Inject(VM_PROVISIONER) private readonly vcenter: VmProvisioner,
    private readonly access: VcenterAccessService,
    private readonly vms: VmViewRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly events: EventOutbox,
  ) {}

  async list(
    caller: VsphereCaller,
    page: { page: number; page_size: number },
  ): Promise<RequestReply<Page<VirtualMachineView>>> {
    const found = await this.vms.list(visibilityOf(caller), { page: page.page, pageSize: page.page_size });
    return ok({ items: found.items.map((r) => r.view), count: found.count });
  }

  async get(caller: VsphereCaller, uuid: string): Promise<RequestReply<VirtualMachineView>> {
    const found = await this.vms.get(visibilityOf(caller), uuid);
    return found === null ? refuse(404, NOT_FOUND) : ok(found.view);
  }

  async power(
    caller: VsphereCaller,
    uuid: string,
    action: PowerAction,
  ): Promise<RequestReply<PowerOperationView>> {
    const found = await this.vms.get(visibilityOf(caller), uuid);
    if (found === null) return refuse(404, NOT_FOUND);
    const ran = await this.busy.tryRun(uuid, () => this.carryOut(found.view, found.moref, action));
    return ran === null ? refuse(409, BUSY) : ran.value;
  }

  private async carryOut(
    vm: VirtualMachineView,
    moref: string,
    action: PowerAction,
  ): Promise<RequestReply<PowerOperationView>> {
    const access = await this.access.forOffering(vm.offering_uuid);
    if (access === null)
      return refuse(409, 'The offering of this virtual machine is not connected to a vCenter.');
    const signal = AbortSignal.timeout(this.config.VSPHERE_DEPLOY_TIMEOUT_MS);
    const short = { signal, timeoutMs: this.config.VSPHERE_CALL_TIMEOUT_MS };
    const long = { signal, timeoutMs: this.config.VSPHERE_DEPLOY_TIMEOUT_MS };
    // Only vCenter's failures are answered with its message; our own (Postgres) are not hidden.
    let connection;
    let state;
    try {
      connection = await access.connection();
      state = await this.vcenter.powerState(connection, moref, short);
    } catch (error) {
      return refuse(409, describeVcenterError(error));
    }
    if (state === undefined) return refuse(409, 'The virtual machine no longer exists in vCenter.');
    // vCenter's state decides (the VM may have been changed there); ours follows it.
    await this.record(vm, state);
    const refusal = powerRefusal(action, state);
    if (refusal !== null) return refuse(409, refusal);
    let after: VmRuntimeState;
    try {
      if (action === 'start') await this.vcenter.powerOn(connection, moref, long);
      else await this.vcenter.power(connection, moref, action, long);
      after = (await this.vcenter.powerState(connection, moref, short)) ?? STATE_AFTER[action];
    } catch (error) {
      return refuse(409, describeVcenterError(error));
    }
    await this.record(vm, after);
    return ok({ uuid: vm.uuid, operation: action, runtime_state: after });
  }

  /** The VM's new runtime state and its VmChanged, in one transaction; nothing when it is unchanged. */
  private async record(vm: VirtualMachineView, state: VmRuntimeState): Promise<void> {
    const changed = await this.unitOfWork.run(async (tx) => {
      const change = await this.vms.setRuntimeState(tx, vm.offering_uuid, vm.uuid, state);
      if (change === null) return false;
      await this.events.append(
        tx,
        this.events.subjects.vmChanged,
        VmChangedEvent,
        { previousState: change.previous, vm: change.now.view, operation: null },
        vm.uuid,
      );
      return true;
    });
    if (changed) this.events.wake();
  }
}
