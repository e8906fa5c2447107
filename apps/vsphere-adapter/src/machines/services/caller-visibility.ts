import type { VsphereCaller } from '@app/contracts';
import type { VmVisibility } from '../repositories/vm-view.repository';

/** Whose VMs (and their disks and adapters) a caller sees: staff all, others their customers'. Pure. */
export const visibilityOf = (caller: VsphereCaller): VmVisibility =>
  caller.is_staff ? { all: true } : { all: false, customerUuids: caller.customer_uuids };
