import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  invalidField,
  ok,
  refuse,
  type DeviceState,
  type DiskView,
  type Page,
  type PortView,
  type RequestReply,
  type VmOperationView,
  type VsphereCaller,
} from '@app/contracts';
import type { StoreAnswer } from '@app/messaging';
import { VcenterAccessService } from '../../integration/services/vcenter-access.service';
import { UnitOfWork } from '@app/messaging';
import { NOT_FOUND } from '../../services/request-guard.service';
import { extendRefusal, newDiskRefusal, newPortRefusal } from '../domain/device-rules';
import { parseLink } from '../domain/order-links';
import { VmOperationQueue } from '../operations/vm-operation-queue';
import {
  VmDeviceRepository,
  type DeviceOwnerVm,
  type DeviceTable,
} from '../repositories/vm-device.repository';
import { visibilityOf, vmAccessRefusal } from '../domain/vm-access';
import { VmQuotaService } from './vm-quota.service';

// Waldur's names for the states; a refusal lists those the operation accepts (IncorrectStateException).
const STATE_NAMES: Record<string, string> = {
  OK: 'OK',
  UPDATING: 'Updating',
  ERRED: 'Erred',
  CREATING: 'Creating',
  DELETING: 'Deleting',
};
const wrongState = (valid: readonly string[]) =>
  refuse(409, `Valid states for operation: ${valid.map((s) => STATE_NAMES[s]).join(', ')}.`);

/**
 * Operations are queued per VM, so a device may be asked for while another operation on the VM
 * waits or runs (UPDATING); an ERRED VM takes none until a pull or a successful operation clears it,
 * as Waldur asks for OK.
 */
const VM_STATES_FOR_DEVICES = ['OK', 'UPDATING'] as const;
const EXTENDABLE: readonly DeviceState[] = ['OK', 'UPDATING'];
const DELETABLE: readonly DeviceState[] = ['OK', 'UPDATING', 'ERRED'];

const NAMES = { disk: 'New disk', port: 'New virtual Adapter' } as const;

const M = {
  noObject: 'Invalid hyperlink - Object does not exist.',
  notForService: 'This network is not available for this service.',
  notForCustomer: 'This network is not available for this customer.',
  notConnected: 'The offering of this virtual machine is not connected to a vCenter.',
} as const;

/**
 * `/api/vmware-disks/`, `/api/vmware-ports/` and a VM's `create_disk` / `create_port`: each request
 * is checked against Waldur's rules, recorded (the device's row, its state) and queued as an
 * operation in one transaction; the runner carries it out on vCenter. A disk added or extended is
 * counted against the project's and organisation's storage quotas in that transaction (VmQuotaService);
 * a network adapter counts against no quota (they are vCPU, RAM, storage, VMs and cost).
 */
@Injectable()
export class VmDevicesService {
  constructor(
    private readonly devices: VmDeviceRepository,
    private readonly access: VcenterAccessService,
    private readonly queue: VmOperationQueue,
    private readonly unitOfWork: UnitOfWork,
    private readonly vmQuotas: VmQuotaService,
  ) {}

  async listDisks(
    caller: VsphereCaller,
    query: { page: number; page_size: number; vm_uuid?: string },
  ): Promise<RequestReply<Page<DiskView>>> {
    return ok(
      await this.devices.listDisks(
        visibilityOf(caller),
        { vmUuid: query.vm_uuid },
        { page: query.page, pageSize: query.page_size },
      ),
    );
  }

  async listPorts(
    caller: VsphereCaller,
    query: { page: number; page_size: number; vm_uuid?: string },
  ): Promise<RequestReply<Page<PortView>>> {
    return ok(
      await this.devices.listPorts(
        visibilityOf(caller),
        { vmUuid: query.vm_uuid },
        { page: query.page, pageSize: query.page_size },
      ),
    );
  }

  async getDisk(caller: VsphereCaller, uuid: string): Promise<RequestReply<DiskView>> {
    const found = await this.devices.getDisk(visibilityOf(caller), uuid);
    if (found === null) return refuse(404, NOT_FOUND);
    return vmAccessRefusal(caller, found.vm, 'read') ?? ok(found.view);
  }

  async getPort(caller: VsphereCaller, uuid: string): Promise<RequestReply<PortView>> {
    const found = await this.devices.getPort(visibilityOf(caller), uuid);
    if (found === null) return refuse(404, NOT_FOUND);
    return vmAccessRefusal(caller, found.vm, 'read') ?? ok(found.view);
  }

  /**
   * `create_disk`: 201 with the disk (CREATING); the operation adds it in vCenter. With an
   * Idempotency-Key, `store` keeps the answer in the transaction that made the disk; past the
   * gateway's `deadline` nothing is committed (DeadlinePassedError, answered 503 by the guard).
   */
  async createDisk(
    caller: VsphereCaller,
    vmUuid: string,
    size: number,
    store?: StoreAnswer,
    deadline?: number,
  ): Promise<RequestReply<DiskView>> {
    const vm = await this.devices.getVm(visibilityOf(caller), vmUuid);
    if (vm === null) return refuse(404, NOT_FOUND);
    const vmRefusal = vmAccessRefusal(caller, vm, 'act') ?? this.vmRefusal(vm);
    if (vmRefusal !== null) return vmRefusal;
    const access = await this.access.forOffering(vm.offeringUuid);
    if (access === null) return refuse(409, M.notConnected);
    const operationUuid = randomUUID();
    const result = await this.vmQuotas.guard(operationUuid, () =>
      this.unitOfWork.run(async (tx) => {
        if (!(await this.devices.lockVm(tx, vm.rowUuid))) return refuse(404, NOT_FOUND);
        const refusal = newDiskRefusal(
          size,
          await this.devices.committedDiskMiB(tx, vm.rowUuid),
          access.integration,
        );
        if (refusal !== null) return invalidField('size', refusal);
        const quota = await this.vmQuotas.reserve(
          operationUuid,
          vm.marketplaceResourceUuid,
          { vcpu: 0, ram: 0, storage: size },
          { storage: 'size' },
        );
        if (quota !== null) return quota;
        const disk = await this.devices.createDisk(tx, vm.rowUuid, { name: NAMES.disk, size });
        await this.queue.enqueue(tx, {
          uuid: operationUuid,
          vmRowUuid: vm.rowUuid,
          kind: 'create_disk',
          params: { size },
          diskUuid: disk,
          requestedBy: caller.user_uuid,
        });
        const created = await this.devices.getDisk({ all: true }, disk, tx);
        const reply = ok(created!.view);
        await store?.(tx, reply);
        return reply;
      }, deadline),
    );
    this.wakeOn(result);
    return result;
  }

  /** `extend`: 202 with the operation; the disk is UPDATING until it ran. */
  async extendDisk(
    caller: VsphereCaller,
    diskUuid: string,
    size: number,
  ): Promise<RequestReply<VmOperationView>> {
    const disk = await this.devices.getDisk(visibilityOf(caller), diskUuid);
    if (disk === null) return refuse(404, NOT_FOUND);
    const vmRefusal = vmAccessRefusal(caller, disk.vm, 'act') ?? this.vmRefusal(disk.vm);
    if (vmRefusal !== null) return vmRefusal;
    if (disk.deviceKey === null || !EXTENDABLE.includes(disk.view.state)) return wrongState(EXTENDABLE);
    const access = await this.access.forOffering(disk.vm.offeringUuid);
    if (access === null) return refuse(409, M.notConnected);
    const operationUuid = randomUUID();
    const result = await this.vmQuotas.guard(operationUuid, () =>
      this.unitOfWork.run(async (tx) => {
        if (!(await this.devices.lockVm(tx, disk.vm.rowUuid))) return refuse(404, NOT_FOUND);
        const current = await this.devices.committedDiskSize(tx, diskUuid);
        const total = await this.devices.committedDiskMiB(tx, disk.vm.rowUuid);
        const refusal = extendRefusal(size, current, total, access.integration);
        if (refusal !== null) return invalidField('size', refusal);
        // The growth past what the disk has or is already being extended to (that is counted).
        const quota = await this.vmQuotas.reserve(
          operationUuid,
          disk.vm.marketplaceResourceUuid,
          { vcpu: 0, ram: 0, storage: Math.max(0, size - current) },
          { storage: 'size' },
        );
        if (quota !== null) return quota;
        if (!(await this.devices.setState(tx, 'disk', diskUuid, 'UPDATING'))) return refuse(404, NOT_FOUND);
        return ok(
          await this.queue.enqueue(tx, {
            uuid: operationUuid,
            vmRowUuid: disk.vm.rowUuid,
            kind: 'extend_disk',
            params: { size },
            diskUuid,
            requestedBy: caller.user_uuid,
          }),
        );
      }),
    );
    this.wakeOn(result);
    return result;
  }

  /**
   * `create_port`: 201 with the adapter (CREATING) on a network assigned for existing VMs; `store`
   * and `deadline` as for `createDisk`.
   */
  async createPort(
    caller: VsphereCaller,
    vmUuid: string,
    network: string,
    store?: StoreAnswer,
    deadline?: number,
  ): Promise<RequestReply<PortView>> {
    const vm = await this.devices.getVm(visibilityOf(caller), vmUuid);
    if (vm === null) return refuse(404, NOT_FOUND);
    const vmRefusal = vmAccessRefusal(caller, vm, 'act') ?? this.vmRefusal(vm);
    if (vmRefusal !== null) return vmRefusal;
    const link = parseLink('networks', network);
    if (!link.ok) return invalidField('network', link.message);
    const found = await this.devices.networkForPort(link.uuid, vm.customerUuid);
    if (found === null) return invalidField('network', M.noObject);
    if (found.offeringUuid !== vm.offeringUuid) return invalidField('network', M.notForService);
    if (!found.assigned) return invalidField('network', M.notForCustomer);
    const result = await this.unitOfWork.run(async (tx) => {
      if (!(await this.devices.lockVm(tx, vm.rowUuid))) return refuse(404, NOT_FOUND);
      // Not a field's fault: DRF's non-field error, as Waldur's serializer raises it.
      const refusal = newPortRefusal(await this.devices.livePortCount(tx, vm.rowUuid));
      if (refusal !== null) return invalidField('non_field_errors', refusal);
      const port = await this.devices.createPort(tx, vm.rowUuid, {
        name: NAMES.port,
        networkUuid: link.uuid,
        networkBackendId: found.backendId,
      });
      await this.queue.enqueue(tx, {
        vmRowUuid: vm.rowUuid,
        kind: 'create_port',
        params: { network: link.uuid },
        portUuid: port,
        requestedBy: caller.user_uuid,
      });
      const created = await this.devices.getPort({ all: true }, port, tx);
      const reply = ok(created!.view);
      await store?.(tx, reply);
      return reply;
    }, deadline);
    this.wakeOn(result);
    return result;
  }

  /**
   * DELETE of a disk or adapter: 202 with the operation (the device DELETING), or, for one vCenter
   * never made (ERRED without a key), the row goes at once and the answer is null (204): the
   * seed's Destroy.
   */
  async deleteDevice(
    caller: VsphereCaller,
    table: DeviceTable,
    uuid: string,
  ): Promise<RequestReply<VmOperationView | null>> {
    const visibility = visibilityOf(caller);
    const device =
      table === 'disk'
        ? await this.devices.getDisk(visibility, uuid)
        : await this.devices.getPort(visibility, uuid);
    if (device === null) return refuse(404, NOT_FOUND);
    const accessRefusal = vmAccessRefusal(caller, device.vm, 'act');
    if (accessRefusal !== null) return accessRefusal;
    if (device.deviceKey === null) {
      if (device.view.state !== 'ERRED') return wrongState(['ERRED']);
      return this.unitOfWork.run(async (tx) =>
        (await this.devices.delete(tx, table, uuid)) ? ok(null) : refuse(404, NOT_FOUND),
      );
    }
    const vmRefusal = this.vmRefusal(device.vm);
    if (vmRefusal !== null) return vmRefusal;
    if (!DELETABLE.includes(device.view.state)) return wrongState(DELETABLE);
    const result = await this.unitOfWork.run(async (tx) => {
      // The VM's row first, as every other device request takes them: a delete that locked the
      // device and then the VM deadlocked with an extend holding the VM and waiting for the device.
      if (!(await this.devices.lockVm(tx, device.vm.rowUuid))) return refuse(404, NOT_FOUND);
      if (!(await this.devices.setState(tx, table, uuid, 'DELETING'))) return refuse(404, NOT_FOUND);
      return ok<VmOperationView | null>(
        await this.queue.enqueue(tx, {
          vmRowUuid: device.vm.rowUuid,
          kind: table === 'disk' ? 'delete_disk' : 'delete_port',
          ...(table === 'disk' ? { diskUuid: uuid } : { portUuid: uuid }),
          requestedBy: caller.user_uuid,
        }),
      );
    });
    this.wakeOn(result);
    return result;
  }

  private vmRefusal(vm: DeviceOwnerVm): RequestReply<never> | null {
    return isOneOf(vm.state, VM_STATES_FOR_DEVICES) ? null : wrongState(VM_STATES_FOR_DEVICES);
  }

  private wakeOn(result: RequestReply<unknown>): void {
    if (result.status === 'ok') this.queue.wake();
  }
}

const isOneOf = <T extends string>(value: string, values: readonly T[]): value is T =>
  (values as readonly string[]).includes(value);
