import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import {
  asBoolean,
  connectVim,
  openUpdateFeed,
  readVirtualMachinesByRef,
  toVmInfo,
  VimFault,
  VimSessionRegistry,
  VM_PATHS,
  type ObjectUpdate,
  type XmlValue,
} from '@app/vim25';
import { CONFIG, type VsphereAdapterConfig } from '../../config/vsphere-adapter.config';
import type { VcenterConnection } from '../../integration/domain/vcenter-connection';
import type { RemoteVm } from '../ports/vm-provisioner.port';
import {
  VmWatchLost,
  type VmPatch,
  type VmUpdate,
  type VmWatch,
  type VmWatchSource,
} from '../ports/vm-watch.port';
import { toRemoteVm } from './vim25-vm-provisioner';

// What a VM's reads ask for but its record does not hold: a change of these alone is not watched.
const NOT_RECORDED = new Set<string>(['runtime.host', 'guest.guestState', 'resourcePool', 'parent']);

/**
 * The VirtualMachine properties the subscription's filter watches: those of the reads (VM_PATHS)
 * that a VM's record is made of (toRemoteVm), so a path added to the reads is watched too.
 */
export const VM_WATCH_PATHS: readonly string[] = VM_PATHS.filter((path) => !NOT_RECORDED.has(path));

/** vCenter's faults that end a feed, as the port names them; anything else as it is. Pure. */
export function lostOrAsIs(error: unknown): unknown {
  if (!(error instanceof VimFault)) return error;
  if (error.faultType === 'InvalidCollectorVersion')
    return new VmWatchLost('version', `vCenter no longer accepts the version: ${error.message}`);
  // The session is gone (timed out, ended): the collector went with it, a re-login finds it unknown.
  if (error.faultType === 'NotAuthenticated' || error.faultType === 'ManagedObjectNotFound')
    return new VmWatchLost('session', `the subscription's session ended: ${error.message}`);
  return error;
}

/**
 * The watched properties a record's figure is made of alone, each with the figure (toRemoteVm's
 * mapping): an assign of only these is applied without reading the VM again.
 */
const FIGURES: ReadonlyMap<string, keyof VmPatch> = new Map<string, keyof VmPatch>([
  ['name', 'name'],
  ['runtime.powerState', 'runtimeState'],
  ['config.hardware.numCPU', 'cpu'],
  ['config.hardware.numCoresPerSocket', 'coresPerSocket'],
  ['config.hardware.memoryMB', 'ram'],
  ['guest.toolsRunningStatus', 'toolsState'],
  ['config.tools.toolsInstallType', 'toolsInstalled'],
]);

/**
 * The figures a `modify` assigns, when it assigns nothing else (a device, a snapshot, an element
 * of an array, a removal: undefined, the VM must be read). Pure.
 */
export function toVmPatch(update: ObjectUpdate): VmPatch | undefined {
  const props = new Map<string, XmlValue>();
  const figures: (keyof VmPatch)[] = [];
  for (const change of update.changeSet) {
    const figure = FIGURES.get(change.name);
    if (figure === undefined || change.op !== 'assign') return undefined;
    figures.push(figure);
    if (change.val !== undefined) props.set(change.name, change.val);
  }
  if (figures.length === 0) return undefined;
  // An unset property reads as a read of the VM would give it (toRemoteVm's defaults).
  const whole = toRemoteVm(toVmInfo({ obj: update.obj, props }), '');
  const patch: Partial<Record<keyof VmPatch, unknown>> = {};
  for (const figure of figures) patch[figure] = whole[figure];
  return patch as VmPatch;
}

/**
 * An `enter` carries every watched property: the VM whole (templates are not VMs); a `modify`
 * of figures only, those figures. Pure.
 */
export function toVmUpdate(update: ObjectUpdate): VmUpdate {
  const moref = update.obj.value;
  if (update.kind === 'modify') {
    const patch = toVmPatch(update);
    return patch === undefined ? { moref, kind: 'modify' } : { moref, kind: 'modify', patch };
  }
  if (update.kind !== 'enter') return { moref, kind: update.kind };
  const props = new Map<string, XmlValue>();
  for (const change of update.changeSet) if (change.val !== undefined) props.set(change.name, change.val);
  if (asBoolean(props.get('config.template')) === true) return { moref, kind: 'enter' };
  return { moref, kind: 'enter', remote: toRemoteVm(toVmInfo({ obj: update.obj, props }), '') };
}

/**
 * The subscriptions on libs/vim25: a session registry of their own (one login per vCenter and
 * user, apart from the provisioner's and the synchronisation's), two connections each (the held
 * wait and the read of what it reported).
 */
@Injectable()
export class Vim25VmWatchSource implements VmWatchSource, OnApplicationShutdown {
  private readonly sessions = new VimSessionRegistry();

  constructor(@Inject(CONFIG) private readonly config: VsphereAdapterConfig) {}

  async open(connection: VcenterConnection, signal: AbortSignal): Promise<VmWatch> {
    const timeoutMs = this.config.VSPHERE_CALL_TIMEOUT_MS;
    const vim = await connectVim(
      {
        url: connection.url,
        verifySsl: connection.verifySsl,
        caPem: connection.caPem,
        addressCheck: connection.addressCheck,
        connectTimeoutMs: connection.connectTimeoutMs,
        username: connection.username,
        password: connection.password,
        connections: 2,
        timeoutMs,
      },
      { signal, timeoutMs },
      this.sessions,
    );
    const feed = await openUpdateFeed(
      vim.caller,
      vim.content,
      { types: ['VirtualMachine'], propSet: [{ type: 'VirtualMachine', pathSet: [...VM_WATCH_PATHS] }] },
      { signal, timeoutMs },
    );
    return {
      next: async (version, wait) => {
        const set = await feed
          .next(version, {
            maxWaitSeconds: wait.maxWaitSeconds,
            maxObjectUpdates: wait.maxObjectUpdates,
            signal: wait.signal,
            // vCenter answers (empty) after maxWaitSeconds; the HTTP deadline leaves it room.
            timeoutMs: wait.maxWaitSeconds * 1000 + timeoutMs,
          })
          .catch((error: unknown) => {
            throw lostOrAsIs(error);
          });
        if (set === undefined) return undefined;
        return {
          version: set.version,
          truncated: set.truncated,
          updates: set.objects.filter((o) => o.obj.type === 'VirtualMachine').map(toVmUpdate),
        };
      },
      read: async (morefs, readSignal): Promise<RemoteVm[]> => {
        const infos = await readVirtualMachinesByRef(
          vim,
          morefs.map((value) => ({ type: 'VirtualMachine', value })),
          { signal: readSignal, timeoutMs },
        );
        return infos.filter((info) => !info.template).map((info) => toRemoteVm(info, ''));
      },
      close: () => feed.close(),
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sessions.closeAll();
  }
}
