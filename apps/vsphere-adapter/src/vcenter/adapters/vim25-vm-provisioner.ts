import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { ToolsState } from '@app/contracts';
import {
  acquireWebMksTicket,
  asBoolean,
  asString,
  connectRest,
  connectVim,
  deployVmTemplate,
  destroyVm,
  getVmTemplate,
  powerOffVm,
  powerOnVm,
  readDatacenters,
  readVirtualMachine,
  readVirtualMachinePages,
  readVirtualMachines,
  rebootGuestOs,
  reconfigureHardware,
  resetVm,
  RestSessionRegistry,
  retrieveFromView,
  retrieveObject,
  shutdownGuestOs,
  suspendVm,
  VimFault,
  VimSessionRegistry,
  vmrcUrl,
  webMksUrl,
  waitForVmGuestState,
  type MoRef,
  type VimConnection,
  type SnapshotTree,
  type ToolsRunningStatus,
  type VmInfo,
} from '@app/vim25';
import { CONFIG, type VsphereAdapterConfig } from '../../config/vsphere-adapter.config';
import {
  addDisk,
  addNic,
  DeviceResolutionError,
  extendDisk,
  readNetworks,
  removeDisk,
  removeNic,
} from '@app/vim25';
import type { VcenterConnection } from '../../integration/domain/vcenter-connection';
import {
  DeviceChangeImpossible,
  type DeployRequest,
  type RemoteSnapshot,
  type RemoteVm,
  type RuntimeState,
  type VmCallOptions,
  type VmProvisioner,
} from '../ports/vm-provisioner.port';

const POWER: Record<string, RuntimeState> = {
  poweredOn: 'POWERED_ON',
  poweredOff: 'POWERED_OFF',
  suspended: 'SUSPENDED',
};

const TOOLS: Record<ToolsRunningStatus, ToolsState> = {
  guestToolsRunning: 'RUNNING',
  guestToolsExecutingScripts: 'STARTING',
  guestToolsNotRunning: 'NOT_RUNNING',
};

/** Waldur's ToolsStates for vim25's `guest.toolsRunningStatus` (unknown or absent: not running). Pure. */
export function toolsStateOf(status: string | undefined): ToolsState {
  return TOOLS[status as ToolsRunningStatus] ?? 'NOT_RUNNING';
}

/** Whether Tools are installed, as Waldur reads `config.tools.toolsInstallType`. Pure. */
export function toolsInstalledOf(installType: string | undefined): boolean {
  return installType !== undefined && installType !== '' && installType !== 'guestToolsTypeUnknown';
}

const vmRef = (moref: string): MoRef => ({ type: 'VirtualMachine', value: moref });

/**
 * Whether the annotation's last line is `mark`: the mark is written after the user's description,
 * so a description that quotes another order's mark never passes for it. Pure.
 */
export function endsWithLine(annotation: string, mark: string): boolean {
  return annotation.trimEnd().split('\n').pop()?.trim() === mark;
}

/** vCenter's snapshot tree as a list, parents before children. Pure. */
export function flattenSnapshots(trees: readonly SnapshotTree[], parent: string | null): RemoteSnapshot[] {
  return trees.flatMap((t) => [
    {
      moref: t.snapshot.value,
      parent,
      name: t.name,
      description: t.description,
      created: t.createTime,
      memory: t.state === 'poweredOn',
      quiesced: t.quiesced,
    },
    ...flattenSnapshots(t.children, t.snapshot.value),
  ]);
}

/** Maps a VM read over vim25. Pure. */
export function toRemoteVm(info: VmInfo, annotation: string): RemoteVm {
  return {
    moref: info.ref.value,
    uuid: info.instanceUuid ?? info.uuid ?? info.ref.value,
    name: info.name,
    annotation,
    runtimeState: POWER[info.powerState] ?? 'POWERED_OFF',
    cpu: info.numCPU ?? 0,
    coresPerSocket: info.numCoresPerSocket ?? 1,
    ram: info.memoryMB ?? 0,
    disks: info.devices.flatMap((d) =>
      d.kind === 'disk'
        ? [
            {
              key: d.key,
              sizeMiB: Math.floor(d.capacityInKB / 1024),
              datastore: d.datastore?.value,
              label: d.label,
            },
          ]
        : [],
    ),
    nics: info.devices.flatMap((d) =>
      d.kind === 'nic'
        ? [
            {
              key: d.key,
              macAddress: d.macAddress,
              network:
                d.backing.kind === 'standard'
                  ? d.backing.network?.value
                  : d.backing.kind === 'distributed'
                    ? d.backing.portgroupKey
                    : undefined,
              connected: d.connected ?? false,
              label: d.label,
            },
          ]
        : [],
    ),
    toolsState: toolsStateOf(info.toolsRunningStatus),
    toolsInstalled: toolsInstalledOf(info.toolsInstallType),
    snapshots: flattenSnapshots(info.snapshot?.rootSnapshotList ?? [], null),
    currentSnapshot: info.snapshot?.currentSnapshot?.value ?? null,
    consolidationNeeded: info.consolidationNeeded ?? false,
  };
}

/** vim25's DeviceResolutionError (no free unit, the new device not told apart) as the port says it. */
async function impossibleAs<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DeviceResolutionError) {
      const sentence = error.message.endsWith('.') ? error.message : `${error.message}.`;
      throw new DeviceChangeImpossible(`${what}: ${sentence}`);
    }
    throw error;
  }
}

/**
 * The VM operations on libs/vim25. Two pairs of sessions per (vCenter, user): `long` for the deploy
 * (it blocks for the clone, minutes on a real vCenter) and every task wait (WaitForUpdatesEx holds
 * its connection while it waits), `short` for property reads, so slow deploys never starve the
 * reads of validation. Neither is shared with the inventory synchronisation.
 */
@Injectable()
export class Vim25VmProvisioner implements VmProvisioner, OnApplicationShutdown {
  private readonly long = { vim: new VimSessionRegistry(), rest: new RestSessionRegistry() };
  private readonly short = { vim: new VimSessionRegistry() };

  constructor(@Inject(CONFIG) private readonly config: VsphereAdapterConfig) {}

  async findMarked(
    connection: VcenterConnection,
    mark: string,
    options: VmCallOptions,
  ): Promise<RemoteVm | undefined> {
    const vim = await this.vim(connection, 'short', options);
    const objects = await retrieveFromView(
      vim.caller,
      vim.content,
      {
        types: ['VirtualMachine'],
        propSet: [{ type: 'VirtualMachine', pathSet: ['config.annotation', 'config.template'] }],
      },
      options,
    );
    const found = objects.find(
      (o) =>
        endsWithLine(asString(o.props.get('config.annotation')) ?? '', mark) &&
        asBoolean(o.props.get('config.template')) !== true,
    );
    return found === undefined ? undefined : this.read(connection, found.obj.value, options);
  }

  async defaultVmFolder(connection: VcenterConnection, options: VmCallOptions): Promise<string> {
    const vim = await this.vim(connection, 'short', options);
    const folder = (await readDatacenters(vim, options)).find((dc) => dc.vmFolder !== undefined)?.vmFolder;
    if (folder === undefined) throw new Error('vCenter has no datacenter with a VM folder to deploy into.');
    return folder.value;
  }

  async deploy(
    connection: VcenterConnection,
    request: DeployRequest,
    options: VmCallOptions,
  ): Promise<string> {
    const rest = await connectRest(
      { ...this.credentials(connection), timeoutMs: this.config.VSPHERE_CALL_TIMEOUT_MS },
      options,
      this.long.rest,
    );
    // The template's adapters by key, paired in order with the chosen networks (as Waldur does).
    const template = await getVmTemplate(rest, request.itemId, {
      signal: options.signal,
      timeoutMs: this.config.VSPHERE_CALL_TIMEOUT_MS,
    });
    const nicKeys = Object.keys(template.nics).sort((a, b) => Number(a) - Number(b));
    const nics = Object.fromEntries(
      nicKeys.slice(0, request.networks.length).map((key, i) => [key, { network: request.networks[i] }]),
    );
    const vm = await deployVmTemplate(
      rest,
      request.itemId,
      {
        name: request.name,
        description: request.description,
        placement: { folder: request.folder, cluster: request.cluster },
        ...(request.datastore === undefined
          ? {}
          : {
              disk_storage: { datastore: request.datastore },
              vm_home_storage: { datastore: request.datastore },
            }),
        hardware_customization: {
          cpu_update: { num_cpus: request.cpu, num_cores_per_socket: request.coresPerSocket },
          memory_update: { memory: request.ram },
          ...(Object.keys(nics).length > 0 ? { nics } : {}),
        },
        // Powered on afterwards as a task of its own: vCenter powers on asynchronously after the
        // deploy answers, and a failure then would be seen by nobody.
        powered_on: false,
      },
      options,
    );
    return vm.value;
  }

  async powerOn(connection: VcenterConnection, moref: string, options: VmCallOptions): Promise<void> {
    await powerOnVm(await this.vim(connection, 'long', options), vmRef(moref), options);
  }

  async power(
    connection: VcenterConnection,
    moref: string,
    action: 'stop' | 'reset' | 'suspend',
    options: VmCallOptions,
  ): Promise<void> {
    const task = { stop: powerOffVm, reset: resetVm, suspend: suspendVm }[action];
    await task(await this.vim(connection, 'long', options), vmRef(moref), options);
  }

  async reconfigure(
    connection: VcenterConnection,
    moref: string,
    change: { cpu?: number; coresPerSocket?: number; ram?: number },
    options: VmCallOptions,
  ): Promise<void> {
    await reconfigureHardware(
      await this.vim(connection, 'long', options),
      vmRef(moref),
      { numCPUs: change.cpu, numCoresPerSocket: change.coresPerSocket, memoryMB: change.ram },
      options,
    );
  }

  async addDisk(
    connection: VcenterConnection,
    moref: string,
    sizeMiB: number,
    options: VmCallOptions,
  ): Promise<number> {
    const vim = await this.vim(connection, 'long', options);
    const disk = await impossibleAs('Cannot add the disk', () =>
      addDisk(vim, vmRef(moref), { capacityInKB: sizeMiB * 1024 }, options),
    );
    return disk.key;
  }

  async extendDisk(
    connection: VcenterConnection,
    moref: string,
    diskKey: number,
    sizeMiB: number,
    options: VmCallOptions,
  ): Promise<void> {
    await extendDisk(
      await this.vim(connection, 'long', options),
      vmRef(moref),
      diskKey,
      sizeMiB * 1024,
      options,
    );
  }

  async removeDisk(
    connection: VcenterConnection,
    moref: string,
    diskKey: number,
    options: VmCallOptions,
  ): Promise<void> {
    await removeDisk(await this.vim(connection, 'long', options), vmRef(moref), diskKey, options);
  }

  async addNic(
    connection: VcenterConnection,
    moref: string,
    network: string,
    connected: boolean,
    options: VmCallOptions,
  ): Promise<number> {
    const vim = await this.vim(connection, 'long', options);
    // The backing needs more than the id (a distributed group's switch uuid, an opaque network's id).
    const target = (await readNetworks(vim, options)).find((n) => n.ref.value === network);
    if (target === undefined)
      throw new DeviceChangeImpossible(`Cannot add the network adapter: vCenter has no network ${network}.`);
    // Connected now on a running VM: vCenter applies `connected` only there (vcenter8-behaviour.md).
    const nic = await impossibleAs('Cannot add the network adapter', () =>
      addNic(vim, vmRef(moref), target, options, { connected }),
    );
    return nic.key;
  }

  async removeNic(
    connection: VcenterConnection,
    moref: string,
    nicKey: number,
    options: VmCallOptions,
  ): Promise<void> {
    await removeNic(await this.vim(connection, 'long', options), vmRef(moref), nicKey, options);
  }

  async destroy(connection: VcenterConnection, moref: string, options: VmCallOptions): Promise<boolean> {
    try {
      await destroyVm(await this.vim(connection, 'long', options), vmRef(moref), options);
      return true;
    } catch (err) {
      if (err instanceof VimFault && err.faultType === 'ManagedObjectNotFound') return false;
      throw err;
    }
  }

  async powerState(
    connection: VcenterConnection,
    moref: string,
    options: VmCallOptions,
  ): Promise<RuntimeState | undefined> {
    const vim = await this.vim(connection, 'short', options);
    try {
      const o = await retrieveObject(
        vim.caller,
        vim.content.propertyCollector,
        vmRef(moref),
        ['runtime.powerState'],
        options,
      );
      const state = asString(o?.props.get('runtime.powerState'));
      return state === undefined ? undefined : (POWER[state] ?? 'POWERED_OFF');
    } catch (err) {
      if (err instanceof VimFault && err.faultType === 'ManagedObjectNotFound') return undefined;
      throw err;
    }
  }

  async read(
    connection: VcenterConnection,
    moref: string,
    options: VmCallOptions,
  ): Promise<RemoteVm | undefined> {
    const vim = await this.vim(connection, 'short', options);
    const call = { signal: options.signal, timeoutMs: this.config.VSPHERE_CALL_TIMEOUT_MS };
    const info = await readVirtualMachine(vim, vmRef(moref), call);
    if (info === undefined) return undefined;
    const marked = await retrieveObject(
      vim.caller,
      vim.content.propertyCollector,
      vmRef(moref),
      ['config.annotation'],
      call,
    );
    return toRemoteVm(info, asString(marked?.props.get('config.annotation')) ?? '');
  }

  async readAll(connection: VcenterConnection, options: VmCallOptions): Promise<RemoteVm[]> {
    const vim = await this.vim(connection, 'short', options);
    const infos = await readVirtualMachines(vim, options);
    return infos.filter((info) => !info.template).map((info) => toRemoteVm(info, ''));
  }

  async *readPages(
    connection: VcenterConnection,
    options: VmCallOptions & { readonly pageSize: number },
  ): AsyncGenerator<RemoteVm[]> {
    const vim = await this.vim(connection, 'short', options);
    for await (const infos of readVirtualMachinePages(vim, options))
      yield infos.filter((info) => !info.template).map((info) => toRemoteVm(info, ''));
  }

  async guestPower(
    connection: VcenterConnection,
    moref: string,
    action: 'shutdown' | 'reboot',
    options: VmCallOptions,
  ): Promise<void> {
    const call = action === 'shutdown' ? shutdownGuestOs : rebootGuestOs;
    await call(await this.vim(connection, 'short', options), vmRef(moref), options);
  }

  async waitForGuest(
    connection: VcenterConnection,
    moref: string,
    reached: (state: { runtimeState?: RuntimeState; toolsState?: ToolsState }) => boolean,
    options: VmCallOptions,
  ): Promise<void> {
    await waitForVmGuestState(
      await this.vim(connection, 'long', options),
      vmRef(moref),
      (state) =>
        reached({
          runtimeState: state.powerState === undefined ? undefined : POWER[state.powerState],
          toolsState:
            state.toolsRunningStatus === undefined ? undefined : toolsStateOf(state.toolsRunningStatus),
        }),
      options,
    );
  }

  consoleUrl(connection: VcenterConnection, moref: string): string {
    return vmrcUrl(new URL(connection.url).host, vmRef(moref));
  }

  async webConsoleUrl(connection: VcenterConnection, moref: string, options: VmCallOptions): Promise<string> {
    const ticket = await acquireWebMksTicket(
      await this.vim(connection, 'short', options),
      vmRef(moref),
      options,
    );
    return webMksUrl(ticket, new URL(connection.url).hostname);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.long.vim.closeAll(), this.long.rest.closeAll(), this.short.vim.closeAll()]);
  }

  private credentials(connection: VcenterConnection) {
    return {
      url: connection.url,
      verifySsl: connection.verifySsl,
      caPem: connection.caPem,
      addressCheck: connection.addressCheck,
      connectTimeoutMs: connection.connectTimeoutMs,
      username: connection.username,
      password: connection.password,
      connections: this.config.ORDER_CONCURRENCY + 2,
    };
  }

  /** The vim25 session of this adapter's pools, for the companion adapters (snapshots). */
  session(
    connection: VcenterConnection,
    pool: 'long' | 'short',
    options: VmCallOptions,
  ): Promise<VimConnection> {
    return this.vim(connection, pool, options);
  }

  private vim(
    connection: VcenterConnection,
    pool: 'long' | 'short',
    options: VmCallOptions,
  ): Promise<VimConnection> {
    const call = { signal: options.signal, timeoutMs: this.config.VSPHERE_CALL_TIMEOUT_MS };
    return connectVim(
      { ...this.credentials(connection), timeoutMs: this.config.VSPHERE_CALL_TIMEOUT_MS },
      call,
      pool === 'long' ? this.long.vim : this.short.vim,
    );
  }
}
