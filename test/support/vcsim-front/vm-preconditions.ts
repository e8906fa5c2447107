import { asObject, readVmDevices, VimFault, type MoRef, type VimConnection } from '@app/vim25';
import type { SdkCall } from './sdk-request';
import type { FrontFault } from './soap-faults';
import { nicChanges, nicCountRefusal, powerTaskRefusal } from './vm-precondition-rules';
import { readVmRuleState } from './vm-rule-state';

/**
 * vCenter 8's refusal of VM task `call` for a precondition vcsim does not check (a power state a
 * suspend or reset needs, the adapters a VM may have), read over the front's own session; undefined
 * when vCenter would run it, or when vcsim does not know the VM (vcsim answers then). Reads only
 * what the method needs: nothing for the other tasks.
 */
export async function vmTaskPrecondition(
  soap: VimConnection,
  call: SdkCall,
  vm: MoRef,
): Promise<FrontFault | undefined> {
  try {
    if (call.method === 'SuspendVM_Task' || call.method === 'ResetVM_Task') {
      const state = await readVmRuleState(soap, vm);
      return state === undefined ? undefined : powerTaskRefusal(call.method, state.powerState);
    }
    const spec = asObject(call.args.spec);
    if (call.method === 'ReconfigVM_Task' && spec !== undefined) {
      if (nicChanges(spec).added === 0) return undefined;
      const nics = (await readVmDevices(soap, vm)).filter((d) => d.kind === 'nic').length;
      return nicCountRefusal(spec, nics);
    }
    return undefined;
  } catch (err) {
    if (err instanceof VimFault && err.faultType === 'ManagedObjectNotFound') return undefined;
    throw err;
  }
}
