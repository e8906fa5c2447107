import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from '@app/platform';
import { LOGGER } from '../../adapters/runtime-providers';
import { CONFIG, type VsphereAdapterConfig } from '../../config/vsphere-adapter.config';
import { VM_PROVISIONER, type RemoteVm, type VmProvisioner } from '../../vcenter/ports/vm-provisioner.port';
import { describedWithMark, orderMark } from '../domain/order-mark';
import { PlacementRepository } from '../repositories/placement.repository';
import { VirtualMachineRepository } from '../repositories/virtual-machine.repository';
import type { OrderOutcome } from './order-execution.service';
import { OrderRefused } from '../domain/order-failure';
import { callOptions, hardwareAsked, limitsOf, type OrderWork } from './order-work';

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * A Create order: the template deployed through the Content Library (folder always, cluster,
 * datastore, hardware, networks, powered off), then PowerOnVM_Task as its own task, the VM read
 * back and whatever vCenter did not apply applied. Before deploying, the VM this order already
 * made (its mark in the annotation) is looked for: a redelivery never makes a second VM.
 */
@Injectable()
export class VmCreationService {
  constructor(
    @Inject(CONFIG) private readonly config: VsphereAdapterConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(VM_PROVISIONER) private readonly vcenter: VmProvisioner,
    private readonly placement: PlacementRepository,
    private readonly vms: VirtualMachineRepository,
  ) {}

  async create(work: OrderWork): Promise<OrderOutcome> {
    const { order, connection } = work;
    const { attributes } = order;
    const short = callOptions(work, this.config.VSPHERE_CALL_TIMEOUT_MS);
    const long = callOptions(work, this.config.VSPHERE_DEPLOY_TIMEOUT_MS);
    const templateUuid = text(attributes.template);
    const template = templateUuid === undefined ? null : await this.placement.template(templateUuid);
    if (template === null) throw new OrderRefused('The template of the order is no longer in the offering.');
    const asked = hardwareAsked(order);
    const wanted = {
      cpu: asked.cpu ?? template.cores,
      coresPerSocket: asked.coresPerSocket ?? template.coresPerSocket,
      ram: asked.ram ?? template.ram,
    };
    const mark = orderMark(order.orderUuid);

    let vm = await this.vcenter.findMarked(connection, mark, short);
    if (vm !== undefined)
      this.logger.info({ moref: vm.moref }, 'the VM of this order exists already; not deploying again');
    if (vm === undefined) {
      const request = await this.deployRequest(work, template.backendId, wanted);
      let moref: string | undefined;
      try {
        moref = await this.vcenter.deploy(connection, request, long);
      } catch (error) {
        // A deploy that failed on our side (timeout, lost connection) may have made the VM all the same.
        const made = await this.vcenter.findMarked(connection, mark, short).catch(() => undefined);
        if (made === undefined) throw error;
        vm = made;
      }
      vm ??= await this.readOrFail(work, moref!);
    }
    // vCenter applies the hardware customisation; whatever it did not is applied now, while off.
    if (vm.runtimeState !== 'POWERED_ON') {
      if (vm.cpu !== wanted.cpu || vm.coresPerSocket !== wanted.coresPerSocket || vm.ram !== wanted.ram) {
        await this.vcenter.reconfigure(connection, vm.moref, wanted, long);
      }
      await this.vcenter.powerOn(connection, vm.moref, long);
    }
    const final = await this.readOrFail(work, vm.moref);
    const networks = await this.placement.networksByBackendId(order.offeringUuid);
    return {
      kind: 'done',
      answer: {
        orderUuid: order.orderUuid,
        marketplaceResourceUuid: order.marketplaceResourceUuid,
        backendId: final.uuid,
        backendRef: final.moref,
        limits: limitsOf(final),
      },
      record: async (tx) => {
        await this.vms.save(
          tx,
          final,
          {
            offeringUuid: order.offeringUuid,
            orderUuid: order.orderUuid,
            marketplaceResourceUuid: order.marketplaceResourceUuid,
            customerUuid: order.customerUuid,
            projectUuid: order.projectUuid,
            templateUuid: template.uuid,
          },
          networks,
        );
      },
    };
  }

  private async deployRequest(
    work: OrderWork,
    itemId: string,
    wanted: { cpu: number; coresPerSocket: number; ram: number },
  ) {
    const { attributes } = work.order;
    const short = callOptions(work, this.config.VSPHERE_CALL_TIMEOUT_MS);
    const one = async (kind: 'clusters' | 'datastores' | 'folders', uuid: string | undefined) => {
      if (uuid === undefined) return undefined;
      const id = (await this.placement.backendIds(kind, [uuid])).get(uuid);
      if (id === undefined)
        throw new OrderRefused(`The ${kind.slice(0, -1)} of the order is no longer in the offering.`);
      return id;
    };
    const networkUuids = Array.isArray(attributes.networks)
      ? attributes.networks.filter((n): n is string => typeof n === 'string')
      : [];
    const networkIds = await this.placement.backendIds('networks', networkUuids);
    const networks = networkUuids.map((uuid) => {
      const id = networkIds.get(uuid);
      if (id === undefined) throw new OrderRefused('A network of the order is no longer in the offering.');
      return id;
    });
    const cluster = await one('clusters', text(attributes.cluster));
    if (cluster === undefined) throw new OrderRefused('The order names no cluster.');
    return {
      itemId,
      name: text(attributes.name) ?? `vm-${work.order.orderUuid.slice(0, 8)}`,
      description: describedWithMark(text(attributes.description) ?? '', work.order.orderUuid),
      // vCenter 8 requires a folder: the chosen one, else the datacenter's VM folder (as Waldur).
      folder:
        (await one('folders', text(attributes.folder))) ??
        (await this.vcenter.defaultVmFolder(work.connection, short)),
      cluster,
      datastore: await one('datastores', text(attributes.datastore)),
      ...wanted,
      networks,
    };
  }

  private async readOrFail(work: OrderWork, moref: string): Promise<RemoteVm> {
    const vm = await this.vcenter.read(
      work.connection,
      moref,
      callOptions(work, this.config.VSPHERE_CALL_TIMEOUT_MS),
    );
    if (vm === undefined)
      throw new OrderRefused(`The virtual machine ${moref} vanished from vCenter right after it was made.`);
    return vm;
  }
}
