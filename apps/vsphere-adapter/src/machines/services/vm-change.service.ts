import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, type VsphereAdapterConfig } from '../../config/vsphere-adapter.config';
import { VM_PROVISIONER, type VmProvisioner } from '../../vcenter/ports/vm-provisioner.port';
import { PlacementRepository } from '../repositories/placement.repository';
import { VirtualMachineRepository } from '../repositories/virtual-machine.repository';
import type { OrderOutcome } from './order-execution.service';
import { OrderRefused } from '../domain/order-failure';
import { callOptions, hardwareAsked, limitsOf, type OrderWork } from './order-work';

/**
 * Update (ReconfigVM_Task with CPU, cores per socket and memory) and Terminate (Destroy_Task) of a
 * VM an order made. Both need the VM powered off, as Waldur and vCenter do: a running VM ends the
 * order as erred with the reason. A VM already gone counts as terminated.
 */
@Injectable()
export class VmChangeService {
  constructor(
    @Inject(CONFIG) private readonly config: VsphereAdapterConfig,
    @Inject(VM_PROVISIONER) private readonly vcenter: VmProvisioner,
    private readonly placement: PlacementRepository,
    private readonly vms: VirtualMachineRepository,
  ) {}

  async change(work: OrderWork): Promise<OrderOutcome> {
    const { order, connection } = work;
    const short = callOptions(work, this.config.VSPHERE_CALL_TIMEOUT_MS);
    const long = callOptions(work, this.config.VSPHERE_DEPLOY_TIMEOUT_MS);
    const base = { orderUuid: order.orderUuid, marketplaceResourceUuid: order.marketplaceResourceUuid };
    const row = order.backendId ? await this.vms.getByBackendUuid(order.offeringUuid, order.backendId) : null;
    if (row === null) {
      if (order.orderType === 'Terminate') return { kind: 'done', answer: base };
      throw new OrderRefused('The resource has no virtual machine this adapter made: nothing to resize.');
    }
    const vm = await this.vcenter.read(connection, row.moref, short);
    if (vm === undefined) {
      if (order.orderType === 'Terminate')
        return { kind: 'done', answer: base, record: (tx) => this.vms.delete(tx, row.uuid) };
      throw new OrderRefused('The virtual machine no longer exists in vCenter.');
    }
    if (vm.runtimeState !== 'POWERED_OFF') {
      const action = order.orderType === 'Update' ? 'resized' : 'deleted';
      throw new OrderRefused(
        `The virtual machine must be POWERED_OFF to be ${action}; it is ${vm.runtimeState}.`,
      );
    }
    if (order.orderType === 'Terminate') {
      await this.vcenter.destroy(connection, vm.moref, long);
      return { kind: 'done', answer: base, record: (tx) => this.vms.delete(tx, row.uuid) };
    }
    const change = hardwareAsked(order);
    const differs =
      (change.cpu !== undefined && change.cpu !== vm.cpu) ||
      (change.coresPerSocket !== undefined && change.coresPerSocket !== vm.coresPerSocket) ||
      (change.ram !== undefined && change.ram !== vm.ram);
    if (differs) await this.vcenter.reconfigure(connection, vm.moref, change, long);
    const after = (await this.vcenter.read(connection, vm.moref, short)) ?? vm;
    const networks = await this.placement.networksByBackendId(order.offeringUuid);
    return {
      kind: 'done',
      answer: { ...base, backendId: after.uuid, backendRef: after.moref, limits: limitsOf(after) },
      record: (tx) => this.vms.refresh(tx, row.uuid, after, networks),
    };
  }
}
