import type { ToolsState, VmRuntimeState } from '@app/contracts';

// Waldur's message for shutdown_guest / reboot_guest without Tools.
export const TOOLS_NOT_RUNNING = 'VMware Tools are not running.';

/** Why a guest shutdown or reboot may not run on the VM, or null when it may. Pure. */
export function guestRefusal(vm: { runtimeState: VmRuntimeState; toolsState: ToolsState }): string | null {
  if (vm.runtimeState !== 'POWERED_ON')
    return `The virtual machine must be POWERED_ON for its guest to shut down or reboot; it is ${vm.runtimeState}.`;
  if (vm.toolsState !== 'RUNNING') return TOOLS_NOT_RUNNING;
  return null;
}

/** Why CPU and RAM may not change now (vCenter refuses most changes on a running VM), or null. Pure. */
export function updateRefusal(state: VmRuntimeState): string | null {
  return state === 'POWERED_OFF'
    ? null
    : `The virtual machine must be POWERED_OFF to be resized; it is ${state}.`;
}

/** Why a web console may not be opened, or null. Pure. */
export function webConsoleRefusal(state: VmRuntimeState): string | null {
  return state === 'POWERED_ON'
    ? null
    : `The virtual machine must be POWERED_ON for a web console; it is ${state}.`;
}
