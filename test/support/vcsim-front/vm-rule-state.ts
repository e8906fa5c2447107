import { asBoolean, asNumber, asString, retrieveObject, type MoRef, type VimContext } from '@app/vim25';
import type { VmRuleState } from './sdk-rules';

const PATHS = [
  'runtime.powerState',
  'config.hardware.numCPU',
  'config.hardware.numCoresPerSocket',
  'config.hardware.memoryMB',
  'config.cpuHotAddEnabled',
  'config.cpuHotRemoveEnabled',
  'config.memoryHotAddEnabled',
  'guest.toolsRunningStatus',
] as const;

/**
 * The state the `/sdk` rules judge a call on, read over the front's own session (one round trip);
 * undefined when vcsim does not know the VM. Unset hot-plug switches are off, as on vCenter.
 */
export async function readVmRuleState(ctx: VimContext, vm: MoRef): Promise<VmRuleState | undefined> {
  const o = await retrieveObject(ctx.caller, ctx.content.propertyCollector, vm, PATHS);
  if (o === undefined) return undefined;
  const p = (path: (typeof PATHS)[number]) => o.props.get(path);
  return {
    powerState: (asString(p('runtime.powerState')) ?? 'poweredOff') as VmRuleState['powerState'],
    numCPU: asNumber(p('config.hardware.numCPU')) ?? 1,
    numCoresPerSocket: asNumber(p('config.hardware.numCoresPerSocket')) ?? 1,
    memoryMB: asNumber(p('config.hardware.memoryMB')) ?? 0,
    cpuHotAddEnabled: asBoolean(p('config.cpuHotAddEnabled')) ?? false,
    cpuHotRemoveEnabled: asBoolean(p('config.cpuHotRemoveEnabled')) ?? false,
    memoryHotAddEnabled: asBoolean(p('config.memoryHotAddEnabled')) ?? false,
    toolsRunningStatus: asString(p('guest.toolsRunningStatus')),
  };
}
