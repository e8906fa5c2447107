import type { PowerAction, VmRuntimeState } from '@app/contracts';

/** The states each power action may start from, as vCenter 8 allows them (Waldur's preconditions). */
const ALLOWED_FROM: Record<PowerAction, readonly VmRuntimeState[]> = {
  start: ['POWERED_OFF', 'SUSPENDED'],
  stop: ['POWERED_ON', 'SUSPENDED'],
  reset: ['POWERED_ON'],
  suspend: ['POWERED_ON'],
};

/** The state a successful action leaves the VM in. */
export const STATE_AFTER: Record<PowerAction, VmRuntimeState> = {
  start: 'POWERED_ON',
  stop: 'POWERED_OFF',
  reset: 'POWERED_ON',
  suspend: 'SUSPENDED',
};

/** Why `action` may not run on a VM in `state`, or null when it may. Pure. */
export function powerRefusal(action: PowerAction, state: VmRuntimeState): string | null {
  const allowed = ALLOWED_FROM[action];
  if (allowed.includes(state)) return null;
  return `The virtual machine must be ${allowed.join(' or ')} to ${action}; it is ${state}.`;
}
