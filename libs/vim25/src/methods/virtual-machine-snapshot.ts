import type { SoapCaller } from '../soap/soap-transport';
import type { MoRef } from '../types/mo-ref';
import { invokeForMoRef, type CallOptions } from './invoke';

/**
 * VirtualMachine.CreateSnapshot_Task (name, description, memory, quiesce in WSDL order); the Task's
 * result is the new VirtualMachineSnapshot. One round trip.
 */
export async function createSnapshotTask(
  caller: SoapCaller,
  vm: MoRef,
  spec: { name: string; description: string; memory: boolean; quiesce: boolean },
  options?: CallOptions,
): Promise<MoRef> {
  return invokeForMoRef(
    caller,
    'CreateSnapshot_Task',
    vm,
    { name: spec.name, description: spec.description, memory: spec.memory, quiesce: spec.quiesce },
    options,
  );
}

/** VirtualMachine.RemoveAllSnapshots_Task with `consolidate` (the disks merged). One round trip. */
export async function removeAllSnapshotsTask(
  caller: SoapCaller,
  vm: MoRef,
  options?: CallOptions,
): Promise<MoRef> {
  return invokeForMoRef(caller, 'RemoveAllSnapshots_Task', vm, { consolidate: true }, options);
}

/** VirtualMachineSnapshot.RevertToSnapshot_Task: the VM goes back to the snapshot. One round trip. */
export async function revertToSnapshotTask(
  caller: SoapCaller,
  snapshot: MoRef,
  options?: CallOptions,
): Promise<MoRef> {
  return invokeForMoRef(caller, 'RevertToSnapshot_Task', snapshot, {}, options);
}

/**
 * VirtualMachineSnapshot.RemoveSnapshot_Task (removeChildren, consolidate): `removeChildren` false
 * keeps the children (they move up to the removed one's parent). One round trip.
 */
export async function removeSnapshotTask(
  caller: SoapCaller,
  snapshot: MoRef,
  removeChildren: boolean,
  options?: CallOptions,
): Promise<MoRef> {
  return invokeForMoRef(
    caller,
    'RemoveSnapshot_Task',
    snapshot,
    { removeChildren, consolidate: true },
    options,
  );
}
