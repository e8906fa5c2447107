import { Inject, Injectable } from '@nestjs/common';
import { VM_PROVISIONER, type VmProvisioner } from '../../../vcenter/ports/vm-provisioner.port';
import { DEVICE_MESSAGES, MAX_PORTS } from '../../domain/device-rules';
import { PlacementRepository } from '../../repositories/placement.repository';
import type { OperationContext, OperationResult, VmOperationExecutor } from '../vm-operation-executor';
import { textParam, VM_GONE } from './operation-params';

/**
 * `create_port`: a VMXNET3 adapter on the network `params.network` (our uuid; its vCenter id from
 * the inventory), connected at once when the VM runs. Checked live: the VM may have got adapters in
 * vCenter directly. A refusal here fails the operation (not OperationRefused): the row the request
 * inserted has no device and must turn Erred with the reason, to be destroyed.
 */
@Injectable()
export class CreatePortExecutor implements VmOperationExecutor {
  readonly kinds = ['create_port'] as const;

  constructor(
    @Inject(VM_PROVISIONER) private readonly vcenter: VmProvisioner,
    private readonly placement: PlacementRepository,
  ) {}

  async execute({ operation, connection, short, long }: OperationContext): Promise<OperationResult> {
    const networkUuid = textParam(operation, 'network');
    const network = (await this.placement.backendIds('networks', [networkUuid])).get(networkUuid);
    if (network === undefined) throw new Error("The network is no longer in the offering's inventory.");
    const vm = await this.vcenter.read(connection, operation.moref, short);
    if (vm === undefined) throw new Error(VM_GONE);
    if (vm.nics.length >= MAX_PORTS) throw new Error(DEVICE_MESSAGES.tooManyPorts);
    const key = await this.vcenter.addNic(
      connection,
      operation.moref,
      network,
      vm.runtimeState === 'POWERED_ON',
      long,
    );
    return { createdDeviceKey: key };
  }
}
