import type { SoapCaller } from '../soap/soap-transport';
import type { MoRef } from '../types/mo-ref';
import { invokeForMoRef, type CallOptions } from './invoke';

/**
 * VirtualDiskManager.DeleteVirtualDisk_Task: deletes a `.vmdk` by datastore path
 * (`[ds] dir/file.vmdk`); `datacenter` is required when `name` is a datastore path. Returns the Task.
 * One round trip.
 */
export async function deleteVirtualDiskTask(
  caller: SoapCaller,
  virtualDiskManager: MoRef,
  name: string,
  datacenter?: MoRef,
  options?: CallOptions,
): Promise<MoRef> {
  return invokeForMoRef(caller, 'DeleteVirtualDisk_Task', virtualDiskManager, { name, datacenter }, options);
}
