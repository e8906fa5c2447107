import { randomUUID } from 'node:crypto';
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
import type { StoreAnswer } from '@app/messaging';
import { VimFault } from '@app/vim25';
import { CONFIG, type VsphereAdapterConfig } from '../../config/vsphere-adapter.config';
import { describeVcenterError } from '../../integration/domain/vcenter-error-message';
import type { VcenterConnection } from '../../integration/domain/vcenter-connection';
import { VcenterAccessService, type OfferingAccess } from '../../integration/services/vcenter-access.service';
import { UnitOfWork } from '@app/messaging';
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
import { visibilityOf, vmAccessRefusal } from '../domain/vm-access';
import { VmQuotaService } from './vm-quota.service';

const NOT_CONNECTED = 'The offering of this virtual machine is not connected to a vCenter.';
export const NO_WEB_CONSOLE = 'The vCenter of this offering does not issue web console tickets.';
const CONSOLE_FAILED = 'Unable to get console URL.';
/**
 * vCenter 8 offers VMRC no VM-scoped ticket (its VMRC form carries a clone ticket: a whole session
 * of the account that asked): the VMRC link carries none and asks for the person's own vCenter
 * account, which only the provider's staff have.
 */
export const VMRC_STAFF_ONLY =
  'The VMRC console needs a vCenter account of your own; open the web console (web_console) instead.';

const POWER = new Set<VmAction>(['start', 'stop', 'reset', 'suspend']);

/** The request's field names for the hardware rules' (`cores` is Waldur's name of the CPU count). */
const FIELD_OF: Record<string, string> = { cpu: 'cores' };

/** A VM the caller sees, with vCenter's live view of it, or the refusal to answer. */
export type Live =
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
    private readonly vmQuotas: VmQuotaService,
  ) {}

  async act(caller: VsphereCaller, uuid: string, action: VmAction): Promise<RequestReply<VmOperationView>> {
    if (action === 'pull') {
      const vm = await this.actingOn(caller, uuid);
      return vm.ok ? this.enqueue(caller, vm.vm, 'pull', {}) : vm.reply;
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
    const acting = await this.actingOn(caller, uuid);
    if (!acting.ok) return acting.reply;
    const { vm } = acting;
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
    // The growth past the VM as recorded, counted against the project's and organisation's quotas.
    const growth = {
      vcpu: Math.max(0, (body.cores ?? vm.view.cores) - vm.view.cores),
      ram: Math.max(0, (body.ram ?? vm.view.ram) - vm.view.ram),
      storage: 0,
    };
    const params = { cpu: body.cores, coresPerSocket: body.cores_per_socket, ram: body.ram };
    return this.enqueue(caller, vm, 'update', params, {
      admit: (operationUuid) =>
        this.vmQuotas.reserve(operationUuid, vm.view.marketplace_resource_uuid, growth, {
          vcpu: 'cores',
          ram: 'ram',
        }),
    });
  }

  /** The VMRC URL, with no ticket in it: for staff only (see VMRC_STAFF_ONLY). */
  async console(caller: VsphereCaller, uuid: string): Promise<RequestReply<ConsoleView>> {
    const acting = await this.actingOn(caller, uuid);
    if (!acting.ok) return acting.reply;
    const { vm } = acting;
    if (!caller.is_staff) return refuse(403, VMRC_STAFF_ONLY);
    const access = await this.access.forOffering(vm.view.offering_uuid);
    if (access === null) return refuse(409, NOT_CONNECTED);
    try {
      return ok({ url: this.vcenter.consoleUrl(await access.connection(), vm.moref) });
    } catch (error) {
      return refuse(409, `${CONSOLE_FAILED} ${describeVcenterError(error)}`);
    }
  }

  /**
   * The WebMKS URL of a ticket vCenter made for this VM and this request (single use, short-lived);
   * only for a powered-on VM, and only where vCenter issues the ticket. A refusal of vCenter's (the
   * VM powered off meanwhile: InvalidState) is a 409 with its reason.
   */
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

  /**
   * Queues `kind` on the VM with it UPDATING, answered 202 (also for VmSnapshotsService). `admit`,
   * in the same transaction before anything is written, may refuse it (a quota reservation keyed by
   * the operation's uuid); `store` keeps the answer under the request's Idempotency-Key in that
   * transaction.
   */
  async enqueue(
    caller: VsphereCaller,
    vm: VmRecord,
    kind: VmOperationKind,
    params: Record<string, unknown>,
    {
      admit,
      store,
      deadline,
    }: {
      admit?: (operationUuid: string) => Promise<RequestReply<never> | null>;
      store?: StoreAnswer;
      /** The gateway's `meta.deadline`: past it the operation is not queued (DeadlinePassedError). */
      deadline?: number;
    } = {},
  ): Promise<RequestReply<VmOperationView>> {
    const stored = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
    const operationUuid = randomUUID();
    const result = await this.vmQuotas.guard(operationUuid, () =>
      this.unitOfWork.run(async (tx): Promise<RequestReply<VmOperationView>> => {
        const refusal = admit ? await admit(operationUuid) : null;
        if (refusal !== null) return refusal;
        const operation = await this.queue.enqueue(tx, {
          uuid: operationUuid,
          vmRowUuid: vm.rowUuid,
          kind,
          params: stored,
          requestedBy: caller.user_uuid,
        });
        await this.recorder.markUpdating(tx, vm.rowUuid, operation);
        await store?.(tx, ok(operation));
        return ok(operation);
      }, deadline),
    );
    if (result.status !== 'ok') return result;
    this.recorder.wake();
    this.queue.wake();
    return result;
  }

  /**
   * The VM if the caller may act on it: 404 when they do not see it (as for a VM that does not
   * exist), 403 when they only see it. Decided before vCenter is asked anything about the VM.
   */
  async actingOn(
    caller: VsphereCaller,
    uuid: string,
  ): Promise<{ ok: true; vm: VmRecord } | { ok: false; reply: RequestReply<never> }> {
    const vm = await this.vms.get(visibilityOf(caller), uuid);
    if (vm === null) return { ok: false, reply: refuse(404, NOT_FOUND) };
    const place = { projectUuid: vm.view.project_uuid, customerUuid: vm.view.customer_uuid };
    const refusal = vmAccessRefusal(caller, place, 'act');
    return refusal === null ? { ok: true, vm } : { ok: false, reply: refusal };
  }

  private async live(caller: VsphereCaller, uuid: string): Promise<Live> {
    const acting = await this.actingOn(caller, uuid);
    if (!acting.ok) return acting;
    const { vm } = acting;
    const access = await this.access.forOffering(vm.view.offering_uuid);
    if (access === null) return { ok: false, reply: refuse(409, NOT_CONNECTED) };
    return this.liveOf(vm, access);
  }

  /** vCenter's view of the VM now; only vCenter's failures are answered with its message. */
  async liveOf(vm: VmRecord, access: OfferingAccess): Promise<Live> {
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
