import { Inject, Injectable } from '@nestjs/common';
import {
  ok,
  refuse,
  type ConsoleView,
  type PowerAction,
  type RequestReply,
  type VmAction,
  type VmOperationKind,
  type VmOperationView,
  type VsphereCaller,
} from '@app/contracts';
import { VimFault } from '@app/vim25';
import { CONFIG, type VsphereAdapterConfig } from '../../config/vsphere-adapter.config';
import { describeVcenterError } from '../../integration/domain/vcenter-error-message';
import type { VcenterConnection } from '../../integration/domain/vcenter-connection';
import { VcenterAccessService, type OfferingAccess } from '../../integration/services/vcenter-access.service';
import { UnitOfWork } from '../../repositories/unit-of-work';
import { NOT_FOUND } from '../../services/request-guard.service';
import {
  VM_PROVISIONER,
  type RemoteVm,
  type VmCallOptions,
  type VmProvisioner,
} from '../../vcenter/ports/vm-provisioner.port';
import { guestRefusal, updateRefusal, webConsoleRefusal } from '../domain/guest-rules';
import { checkHardware } from '../domain/hardware-rules';
import { powerRefusal } from '../domain/power-rules';
import { VmOperationQueue } from '../operations/vm-operation-queue';
import { VmViewRepository, type VmRecord } from '../repositories/vm-view.repository';
import { VM_GONE, VmRecordService } from './vm-record.service';
import { visibilityOf } from './vm-query.service';

const NOT_CONNECTED = 'The offering of this virtual machine is not connected to a vCenter.';
export const NO_WEB_CONSOLE = 'The vCenter of this offering does not issue web console tickets.';
const CONSOLE_FAILED = 'Unable to get console URL.';

const POWER = new Set<VmAction>(['start', 'stop', 'reset', 'suspend']);

/** The request's field names for the hardware rules' (`cores` is Waldur's name of the CPU count). */
const FIELD_OF: Record<string, string> = { cpu: 'cores' };

/** A VM the caller sees, with vCenter's live view of it, or the refusal to answer. */
type Live =
  | { ok: true; vm: VmRecord; remote: RemoteVm; connection: VcenterConnection }
  | { ok: false; reply: RequestReply<never> };

/**
 * The day-2 requests on a VM: the precondition checked against vCenter's live state (the VM may
 * have changed there), then the operation queued behind any other on the VM with the VM UPDATING,
 * answered 202 with the operation; the outcome follows as VmChanged. A VM in ERRED takes requests
 * (the next success clears it). Consoles are answered at once with a ticket made for the request.
 */
@Injectable()
export class VmActionService {
  constructor(
    @Inject(CONFIG) private readonly config: VsphereAdapterConfig,
    @Inject(VM_PROVISIONER) private readonly vcenter: VmProvisioner,
    private readonly access: VcenterAccessService,
    private readonly vms: VmViewRepository,
    private readonly queue: VmOperationQueue,
    private readonly recorder: VmRecordService,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async act(caller: VsphereCaller, uuid: string, action: VmAction): Promise<RequestReply<VmOperationView>> {
    if (action === 'pull') {
      const vm = await this.vms.get(visibilityOf(caller), uuid);
      return vm === null ? refuse(404, NOT_FOUND) : this.enqueue(caller, vm, 'pull', {});
    }
    const live = await this.live(caller, uuid);
    if (!live.ok) return live.reply;
    const refusal = POWER.has(action)
      ? powerRefusal(action as PowerAction, live.remote.runtimeState)
      : guestRefusal(live.remote);
    if (refusal !== null) return refuse(409, refusal);
    return this.enqueue(caller, live.vm, action, {});
  }

  async update(
    caller: VsphereCaller,
    uuid: string,
    body: { cores?: number; cores_per_socket?: number; ram?: number },
  ): Promise<RequestReply<VmOperationView>> {
    const vm = await this.vms.get(visibilityOf(caller), uuid);
    if (vm === null) return refuse(404, NOT_FOUND);
    const access = await this.access.forOffering(vm.view.offering_uuid);
    if (access === null) return refuse(409, NOT_CONNECTED);
    const errors = checkHardware(
      {
        cpu: body.cores ?? vm.view.cores,
        coresPerSocket: body.cores_per_socket ?? vm.view.cores_per_socket,
        ram: body.ram ?? vm.view.ram,
        disk: vm.view.disk,
      },
      access.integration,
      false,
    );
    const fields = Object.fromEntries(Object.entries(errors).map(([f, m]) => [FIELD_OF[f] ?? f, m]));
    if (Object.keys(fields).length > 0) return { status: 'error', code: 400, fields };
    const live = await this.liveOf(vm, access);
    if (!live.ok) return live.reply;
    const refusal = updateRefusal(live.remote.runtimeState);
    if (refusal !== null) return refuse(409, refusal);
    return this.enqueue(caller, vm, 'update', {
      cpu: body.cores,
      coresPerSocket: body.cores_per_socket,
      ram: body.ram,
    });
  }

  /** A VMRC URL with a clone ticket acquired for this request (tickets work once). */
  async console(caller: VsphereCaller, uuid: string): Promise<RequestReply<ConsoleView>> {
    const vm = await this.vms.get(visibilityOf(caller), uuid);
    if (vm === null) return refuse(404, NOT_FOUND);
    const access = await this.access.forOffering(vm.view.offering_uuid);
    if (access === null) return refuse(409, NOT_CONNECTED);
    try {
      const url = await this.vcenter.consoleUrl(await access.connection(), vm.moref, this.short());
      return ok({ url });
    } catch (error) {
      return refuse(409, `${CONSOLE_FAILED} ${describeVcenterError(error)}`);
    }
  }

  /** The WebMKS URL; only for a powered-on VM, and only where vCenter issues the ticket. */
  async webConsole(caller: VsphereCaller, uuid: string): Promise<RequestReply<ConsoleView>> {
    const live = await this.live(caller, uuid);
    if (!live.ok) return live.reply;
    const refusal = webConsoleRefusal(live.remote.runtimeState);
    if (refusal !== null) return refuse(409, refusal);
    try {
      return ok({ url: await this.vcenter.webConsoleUrl(live.connection, live.vm.moref, this.short()) });
    } catch (error) {
      if (error instanceof VimFault && error.faultType === 'MethodNotFound')
        return refuse(409, NO_WEB_CONSOLE);
      return refuse(409, `${CONSOLE_FAILED} ${describeVcenterError(error)}`);
    }
  }

  private async enqueue(
    caller: VsphereCaller,
    vm: VmRecord,
    kind: VmOperationKind,
    params: Record<string, unknown>,
  ): Promise<RequestReply<VmOperationView>> {
    const stored = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
    const view = await this.unitOfWork.run(async (tx) => {
      const operation = await this.queue.enqueue(tx, {
        vmRowUuid: vm.rowUuid,
        kind,
        params: stored,
        requestedBy: caller.user_uuid,
      });
      await this.recorder.markUpdating(tx, vm.rowUuid, operation);
      return operation;
    });
    this.recorder.wake();
    this.queue.wake();
    return ok(view);
  }

  private async live(caller: VsphereCaller, uuid: string): Promise<Live> {
    const vm = await this.vms.get(visibilityOf(caller), uuid);
    if (vm === null) return { ok: false, reply: refuse(404, NOT_FOUND) };
    const access = await this.access.forOffering(vm.view.offering_uuid);
    if (access === null) return { ok: false, reply: refuse(409, NOT_CONNECTED) };
    return this.liveOf(vm, access);
  }

  /** vCenter's view of the VM now; only vCenter's failures are answered with its message. */
  private async liveOf(vm: VmRecord, access: OfferingAccess): Promise<Live> {
    let connection: VcenterConnection;
    let remote: RemoteVm | undefined;
    try {
      connection = await access.connection();
      remote = await this.vcenter.read(connection, vm.moref, this.short());
    } catch (error) {
      return { ok: false, reply: refuse(409, describeVcenterError(error)) };
    }
    if (remote === undefined) return { ok: false, reply: refuse(409, VM_GONE) };
    return { ok: true, vm, remote, connection };
  }

  private short(): VmCallOptions {
    return {
      signal: AbortSignal.timeout(this.config.VSPHERE_CALL_TIMEOUT_MS),
      timeoutMs: this.config.VSPHERE_CALL_TIMEOUT_MS,
    };
  }
}
