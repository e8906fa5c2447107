import { asArray, asObject, isNicType, type XmlObject } from '@app/vim25';
import { invalidPowerState, type VmRuleState } from './sdk-rules';
import type { FrontFault } from './soap-faults';

/**
 * Network adapters a VM may have: "Maximum number of NICs", 10 for every hardware version from 7
 * (vSphere VM Administration, "Hardware Features Available with Virtual Machine Compatibility
 * Settings"; the row read in the 7.0 and 6.7 editions of the table, the 8.0 edition's excerpt at
 * hand ending before it).
 */
export const MAX_NICS_PER_VM = 10;

/**
 * The guest operations (no task of their own) vCenter refuses with TaskInProgress while a task runs
 * on the VM: RebootGuest is among the methods the API reference lists for TaskInProgress (the
 * listing read ends before ShutdownGuest, which is therefore not judged so).
 */
export const TASK_SERIALISED_GUEST_OPERATIONS: ReadonlySet<string> = new Set(['RebootGuest']);

// The power tasks vcsim runs from any state but its target, where vCenter 8 needs the VM powered on:
// SuspendVM_Task "suspends a powered-on virtual machine", ResetVM_Task "resets a powered-on
// virtual machine" (vSphere Automation API, vcenter/vm/power), InvalidPowerState being the fault
// the Web Services API lists for both.
const NEEDS_POWERED_ON = new Set(['SuspendVM_Task', 'ResetVM_Task']);

/**
 * vCenter 8's refusal of power task `method` on a VM in `powerState`, where vcsim would run it
 * (vcsim suspends a powered-off VM, and resets a suspended one by powering it off and on):
 * InvalidPowerState, requestedState poweredOn. Undefined for the other methods and states. Pure.
 */
export function powerTaskRefusal(
  method: string,
  powerState: VmRuleState['powerState'],
): FrontFault | undefined {
  if (!NEEDS_POWERED_ON.has(method) || powerState === 'poweredOn') return undefined;
  return invalidPowerState('poweredOn', powerState);
}

/** How many network adapters `spec` adds and removes. Pure. */
export function nicChanges(spec: XmlObject): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const change of asArray(spec.deviceChange)) {
    const c = asObject(change);
    const type = asObject(c?.device)?._type;
    if (typeof type !== 'string' || !isNicType(type)) continue;
    if (c?.operation === 'add') added++;
    if (c?.operation === 'remove') removed++;
  }
  return { added, removed };
}

/**
 * vCenter 8's refusal of a ReconfigVM_Task `spec` that leaves a VM with `nicsNow` adapters holding
 * more than MAX_NICS_PER_VM: TooManyDevices ("the number of virtual devices exceeds the maximum for
 * a given controller", thrown by ReconfigVM_Task; the adapters sit on the VM's PCI controller).
 * vcsim adds any number. A spec that adds none is never refused for the count. Pure.
 */
export function nicCountRefusal(spec: XmlObject, nicsNow: number): FrontFault | undefined {
  const { added, removed } = nicChanges(spec);
  if (added === 0 || nicsNow + added - removed <= MAX_NICS_PER_VM) return undefined;
  return {
    type: 'TooManyDevices',
    message: `A virtual machine can have at most ${MAX_NICS_PER_VM} network adapters.`,
  };
}
