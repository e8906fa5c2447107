import {
  asArray,
  asBoolean,
  asNumber,
  asObject,
  isNicType,
  pathOf,
  type MoRef,
  type XmlObject,
} from '@app/vim25';
import type { FrontFault } from './soap-faults';

/** What the rules need to know of a VM (read by the front over its own session). */
export interface VmRuleState {
  readonly powerState: 'poweredOn' | 'poweredOff' | 'suspended';
  readonly numCPU: number;
  readonly numCoresPerSocket: number;
  readonly memoryMB: number;
  readonly cpuHotAddEnabled: boolean;
  readonly cpuHotRemoveEnabled: boolean;
  readonly memoryHotAddEnabled: boolean;
  readonly toolsRunningStatus?: string;
}

// vCenter's display names of the power states, as its InvalidPowerState message prints them.
const STATE_NAMES: Record<VmRuleState['powerState'], string> = {
  poweredOn: 'Powered on',
  poweredOff: 'Powered off',
  suspended: 'Suspended',
};

/** vCenter's InvalidPowerState: the state the operation needs and the VM's own, with vCenter's text. Pure. */
export function invalidPowerState(requested: string, existing: VmRuleState['powerState']): FrontFault {
  return {
    type: 'InvalidPowerState',
    message: `The attempted operation cannot be performed in the current state (${STATE_NAMES[existing]}).`,
    fields: { requestedState: requested, existingState: existing },
  };
}

const CPU_HOT_PLUG: FrontFault = {
  type: 'CpuHotPlugNotSupported',
  message: 'CPU hot plug is not supported for this virtual machine.',
};
const MEMORY_HOT_PLUG: FrontFault = {
  type: 'MemoryHotPlugNotSupported',
  message: 'Memory hot plug is not supported for this virtual machine.',
};
const HOT_PLUG_FLAGS = ['cpuHotAddEnabled', 'cpuHotRemoveEnabled', 'memoryHotAddEnabled'] as const;

/**
 * vCenter 8's refusal of a VirtualMachineConfigSpec `spec` on a VM in `vm`'s state, or undefined
 * when vCenter accepts it. On a powered-on VM: CPUs up only with cpuHotAddEnabled, down only with
 * cpuHotRemoveEnabled, cores per socket never, memory up only with memoryHotAddEnabled and never
 * down; the hot-plug switches themselves only while off. A suspended VM's CPU and memory cannot
 * change at all. A value equal to the current one is no change. Pure.
 */
export function reconfigureRefusal(spec: XmlObject, vm: VmRuleState): FrontFault | undefined {
  if (vm.powerState === 'poweredOff') return undefined;
  const changed = (field: string, current: number): number | undefined => {
    const v = asNumber(spec[field]);
    return v === undefined || v === 0 || v === current ? undefined : v;
  };
  const cpus = changed('numCPUs', vm.numCPU);
  const cores = changed('numCoresPerSocket', vm.numCoresPerSocket);
  const memory = changed('memoryMB', vm.memoryMB);
  const flagChanged = HOT_PLUG_FLAGS.some((f) => {
    const v = asBoolean(spec[f]);
    return v !== undefined && v !== vm[f];
  });
  if (vm.powerState === 'suspended') {
    const anyChange = cpus !== undefined || cores !== undefined || memory !== undefined || flagChanged;
    return anyChange ? invalidPowerState('poweredOff', 'suspended') : undefined;
  }
  if (flagChanged) return invalidPowerState('poweredOff', 'poweredOn');
  if (cores !== undefined) return CPU_HOT_PLUG;
  if (cpus !== undefined && cpus > vm.numCPU && !vm.cpuHotAddEnabled) return CPU_HOT_PLUG;
  if (cpus !== undefined && cpus < vm.numCPU && !vm.cpuHotRemoveEnabled) return CPU_HOT_PLUG;
  if (memory !== undefined && (memory < vm.memoryMB || !vm.memoryHotAddEnabled)) return MEMORY_HOT_PLUG;
  return undefined;
}

/**
 * vCenter 8's refusal of ShutdownGuest / RebootGuest: a VM that is not powered on is
 * InvalidPowerState; without VMware Tools running, ToolsUnavailable. Pure.
 */
export function guestOperationRefusal(vm: VmRuleState): FrontFault | undefined {
  if (vm.powerState !== 'poweredOn') return invalidPowerState('poweredOn', vm.powerState);
  if (vm.toolsRunningStatus !== 'guestToolsRunning')
    return {
      type: 'ToolsUnavailable',
      message: 'Cannot complete operation because VMware Tools is not running in this virtual machine.',
    };
  return undefined;
}

/** vCenter's answer to a second task on a VM while `task` (when already known) runs on it. Pure. */
export function taskInProgress(task: MoRef | undefined): FrontFault {
  return {
    type: 'TaskInProgress',
    message: 'Another task is already in progress.',
    fields: task === undefined ? {} : { task: { type: task.type, value: task.value } },
  };
}

/**
 * For each network adapter `spec` adds, in order, whether the client asked for it connected
 * (`connectable.connected` true). On a running VM vCenter leaves the others disconnected until the
 * next power-on, where vcsim connects an adapter sent without `connectable`. Pure.
 */
export function nicAddsConnected(spec: XmlObject): boolean[] {
  const wanted: boolean[] = [];
  for (const change of asArray(spec.deviceChange)) {
    const c = asObject(change);
    const device = asObject(c?.device);
    if (c?.operation !== 'add' || device === undefined || !isNicType(device._type ?? '')) continue;
    wanted.push(asBoolean(pathOf(device, 'connectable.connected')) === true);
  }
  return wanted;
}

/**
 * vCenter 8's refusal of `VirtualMachine.AcquireTicket` on a VM in `vm`'s state: a console ticket
 * is "the information needed to establish a connection to a running virtual machine"
 * (VirtualMachineTicket), so a VM that is not powered on is refused with InvalidState, the fault
 * the API reference lists for AcquireTicket (InvalidPowerState is not among its faults), with
 * vCenter's text of that fault. Pure.
 */
export function acquireTicketRefusal(vm: Pick<VmRuleState, 'powerState'>): FrontFault | undefined {
  if (vm.powerState === 'poweredOn') return undefined;
  return { type: 'InvalidState', message: 'The operation is not allowed in the current state.' };
}

/**
 * vCenter's answer to `SessionManager.CloneSession` with a ticket it did not issue as a clone
 * ticket (a VM console ticket among them): InvalidLogin, with vCenter's text of that fault, and no
 * session. Pure.
 */
export const CLONE_TICKET_REFUSED: FrontFault = {
  type: 'InvalidLogin',
  message: 'Cannot complete login due to an incorrect user name or password.',
};
