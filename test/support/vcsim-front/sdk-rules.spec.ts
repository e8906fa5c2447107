import type { XmlObject } from '@app/vim25';
import {
  guestOperationRefusal,
  nicAddsConnected,
  reconfigureRefusal,
  taskInProgress,
  type VmRuleState,
} from './sdk-rules';

const running: VmRuleState = {
  powerState: 'poweredOn',
  numCPU: 2,
  numCoresPerSocket: 1,
  memoryMB: 1024,
  cpuHotAddEnabled: false,
  cpuHotRemoveEnabled: false,
  memoryHotAddEnabled: false,
  toolsRunningStatus: 'guestToolsNotRunning',
};
const vm = (over: Partial<VmRuleState>): VmRuleState => ({ ...running, ...over });
const refusal = (spec: XmlObject, state: VmRuleState) => reconfigureRefusal(spec, state)?.type;

describe('reconfigureRefusal on a running VM', () => {
  it('allows more CPUs only with CPU hot-add', () => {
    expect(refusal({ numCPUs: '4' }, running)).toBe('CpuHotPlugNotSupported');
    expect(refusal({ numCPUs: '4' }, vm({ cpuHotAddEnabled: true }))).toBeUndefined();
  });

  it('allows fewer CPUs only with CPU hot-remove (hot-add is not enough)', () => {
    expect(refusal({ numCPUs: '1' }, vm({ cpuHotAddEnabled: true }))).toBe('CpuHotPlugNotSupported');
    expect(refusal({ numCPUs: '1' }, vm({ cpuHotRemoveEnabled: true }))).toBeUndefined();
  });

  it('never allows a change of cores per socket', () => {
    const all = vm({ cpuHotAddEnabled: true, cpuHotRemoveEnabled: true });
    expect(refusal({ numCoresPerSocket: '2' }, all)).toBe('CpuHotPlugNotSupported');
    expect(refusal({ numCPUs: '4', numCoresPerSocket: '2' }, all)).toBe('CpuHotPlugNotSupported');
  });

  it('allows more memory only with memory hot-add and less never', () => {
    expect(refusal({ memoryMB: '2048' }, running)).toBe('MemoryHotPlugNotSupported');
    expect(refusal({ memoryMB: '2048' }, vm({ memoryHotAddEnabled: true }))).toBeUndefined();
    expect(refusal({ memoryMB: '512' }, vm({ memoryHotAddEnabled: true }))).toBe('MemoryHotPlugNotSupported');
  });

  it('takes a value equal to the current one, or none, as no change', () => {
    expect(refusal({ numCPUs: '2', numCoresPerSocket: '1', memoryMB: '1024' }, running)).toBeUndefined();
    expect(refusal({ annotation: 'x', deviceChange: [] }, running)).toBeUndefined();
  });

  it('refuses switching hot-plug on or off while running (InvalidPowerState), judged on the current switches', () => {
    const f = reconfigureRefusal({ cpuHotAddEnabled: 'true', numCPUs: '4' }, running);
    expect(f).toMatchObject({
      type: 'InvalidPowerState',
      fields: { requestedState: 'poweredOff', existingState: 'poweredOn' },
    });
    expect(refusal({ memoryHotAddEnabled: 'false' }, running)).toBeUndefined();
  });

  it("answers vCenter's message for CPU hot plug", () => {
    expect(reconfigureRefusal({ numCPUs: '8' }, running)?.message).toBe(
      'CPU hot plug is not supported for this virtual machine.',
    );
  });
});

describe('reconfigureRefusal on other power states', () => {
  it('allows every CPU and memory change on a powered-off VM', () => {
    const off = vm({ powerState: 'poweredOff' });
    expect(
      refusal({ numCPUs: '8', numCoresPerSocket: '4', memoryMB: '64', cpuHotAddEnabled: 'true' }, off),
    ).toBeUndefined();
  });

  it('refuses any CPU or memory change on a suspended VM with InvalidPowerState', () => {
    const suspended = vm({ powerState: 'suspended', cpuHotAddEnabled: true });
    expect(refusal({ numCPUs: '4' }, suspended)).toBe('InvalidPowerState');
    expect(refusal({ annotation: 'x' }, suspended)).toBeUndefined();
  });
});

describe('guestOperationRefusal', () => {
  it('is InvalidPowerState when the VM is not powered on, naming both states', () => {
    expect(guestOperationRefusal(vm({ powerState: 'poweredOff' }))).toEqual({
      type: 'InvalidPowerState',
      message: 'The attempted operation cannot be performed in the current state (Powered off).',
      fields: { requestedState: 'poweredOn', existingState: 'poweredOff' },
    });
    expect(guestOperationRefusal(vm({ powerState: 'suspended' }))?.type).toBe('InvalidPowerState');
  });

  it('is ToolsUnavailable when Tools are not running, nothing when they are', () => {
    expect(guestOperationRefusal(running)?.type).toBe('ToolsUnavailable');
    expect(guestOperationRefusal(vm({ toolsRunningStatus: undefined }))?.type).toBe('ToolsUnavailable');
    expect(guestOperationRefusal(vm({ toolsRunningStatus: 'guestToolsRunning' }))).toBeUndefined();
  });
});

describe('taskInProgress', () => {
  it('names the running task when known', () => {
    expect(taskInProgress({ type: 'Task', value: 'task-3' }).fields).toEqual({
      task: { type: 'Task', value: 'task-3' },
    });
    expect(taskInProgress(undefined)).toMatchObject({ type: 'TaskInProgress', fields: {} });
  });
});

describe('nicAddsConnected', () => {
  it('lists, per adapter added, whether it was asked connected; other changes are ignored', () => {
    const nic = (connectable?: XmlObject): XmlObject => ({
      operation: 'add',
      device: { _type: 'VirtualVmxnet3', ...(connectable ? { connectable } : {}) },
    });
    const spec: XmlObject = {
      deviceChange: [
        nic({ connected: 'true' }),
        { operation: 'add', device: { _type: 'VirtualDisk' } },
        nic(),
        nic({ connected: 'false' }),
        { operation: 'edit', device: { _type: 'VirtualE1000' } },
      ],
    };
    expect(nicAddsConnected(spec)).toEqual([true, false, false]);
    expect(nicAddsConnected({ deviceChange: nic() })).toEqual([false]);
  });
});
