import type { OrderSubmitted } from '@app/contracts';
import type { VcenterConnection } from '../../integration/domain/vcenter-connection';
import type { RemoteVm, VmCallOptions } from '../../vcenter/ports/vm-provisioner.port';

/** One order's vCenter work: its connection, its budget (aborts at the deploy timeout or shutdown). */
export interface OrderWork {
  readonly connection: VcenterConnection;
  readonly signal: AbortSignal;
  readonly order: OrderSubmitted;
}

/** Call options under the order's budget, each call given at most `capMs`. */
export function callOptions(work: OrderWork, capMs: number): VmCallOptions {
  return { signal: work.signal, timeoutMs: capMs };
}

/** The resource's limits as the VM has them (`disk` = all its disks, MiB). Pure. */
export function limitsOf(vm: RemoteVm): { cpu: number; ram: number; disk: number } {
  return { cpu: vm.cpu, ram: vm.ram, disk: vm.disks.reduce((sum, d) => sum + d.sizeMiB, 0) };
}

const whole = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) ? v : undefined;

/** The hardware an order asks for: whole numbers only, undefined where it leaves one unset. Pure. */
export function hardwareAsked(order: Pick<OrderSubmitted, 'attributes' | 'limits'>): {
  cpu?: number;
  coresPerSocket?: number;
  ram?: number;
} {
  return {
    cpu: whole(order.limits.cpu),
    coresPerSocket: whole(order.attributes.cores_per_socket),
    ram: whole(order.limits.ram),
  };
}
