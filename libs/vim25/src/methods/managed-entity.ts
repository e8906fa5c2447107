import type { SoapCaller } from '../soap/soap-transport';
import type { MoRef } from '../types/mo-ref';
import { invokeForMoRef, type CallOptions } from './invoke';

/** ManagedEntity.Destroy_Task: deletes the entity (a VM: from disk too); returns the Task. One round trip. */
export async function destroyTask(caller: SoapCaller, entity: MoRef, options?: CallOptions): Promise<MoRef> {
  return invokeForMoRef(caller, 'Destroy_Task', entity, {}, options);
}
