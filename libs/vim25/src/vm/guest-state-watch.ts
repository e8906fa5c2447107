import { watchProperties } from '../property/wait-for-updates';
import type { MoRef } from '../types/mo-ref';
import type { VimContext } from '../types/vim-context';
import type { ToolsRunningStatus, VirtualMachinePowerState } from '../types/virtual-machine';
import { asString } from '../xml/values';
import type { VmOperationOptions } from './run-task';

/** What a guest operation's end is judged on: the VM's power state and its Tools' status. */
export interface VmGuestState {
  readonly powerState?: VirtualMachinePowerState;
  readonly toolsRunningStatus?: ToolsRunningStatus;
}

/**
 * Follows `runtime.powerState` and `guest.toolsRunningStatus` through WaitForUpdatesEx (vCenter
 * pushes each change) until `reached` holds, and returns that state. ShutdownGuest and RebootGuest
 * return before the guest acted: this is how their end is seen. Throws VimTransportError `timeout`
 * past `timeoutMs`. Cost: as watchProperties (~4 round trips, one held per change batch).
 */
export async function waitForVmGuestState(
  ctx: VimContext,
  vm: MoRef,
  reached: (state: VmGuestState) => boolean,
  options: VmOperationOptions = {},
): Promise<VmGuestState> {
  let state: VmGuestState = {};
  return watchProperties(
    ctx.caller,
    ctx.content.propertyCollector,
    {
      propSet: [{ type: 'VirtualMachine', pathSet: ['runtime.powerState', 'guest.toolsRunningStatus'] }],
      objectSet: [{ obj: vm, skip: false }],
    },
    (update) => {
      for (const change of update.changeSet) {
        const value = asString(change.val);
        if (change.name === 'runtime.powerState')
          state = { ...state, powerState: value as VirtualMachinePowerState | undefined };
        else if (change.name === 'guest.toolsRunningStatus')
          state = { ...state, toolsRunningStatus: value as ToolsRunningStatus | undefined };
      }
      return reached(state) ? state : undefined;
    },
    options,
  );
}
