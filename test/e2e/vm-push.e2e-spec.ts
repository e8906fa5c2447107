import { performance } from 'node:perf_hooks';
import {
  addDisk,
  asMoRef,
  destroyVm,
  invoke,
  powerOffVm,
  readVirtualMachines,
  reconfigureHardware,
  removeNic,
  waitForTask,
  type MoRef,
  type VimConnection,
  type VmInfo,
} from '@app/vim25';
import type { HealthReport } from '@app/contracts';
import { SseClient } from '../support/sse-client';
import { eventually, orderVm, vmChanges, type Vm, type VmChangedData } from '../support/virtual-machines';
import { VsphereMarketplace } from '../support/vsphere-marketplace';

jest.setTimeout(300_000);

const VM_GONE = 'The virtual machine no longer exists in vCenter.';

/**
 * Push from vCenter, end to end: a VM changed directly in vcsim with raw vim25 calls (powered off,
 * resized, given a disk, stripped of its adapter, renamed, deleted) shows each change in REST and
 * on an SSE subscriber's stream by the adapter's live subscription alone: the periodic pull is off
 * and no pull is asked for.
 */
describe('changes made in vCenter reach REST and SSE without a pull', () => {
  let market: VsphereMarketplace;
  let vim: VimConnection;
  let vm: Vm;
  let stream: SseClient;
  const latencies: Record<string, number> = {};

  beforeAll(async () => {
    market = await VsphereMarketplace.start('vmpush', {
      adapterEnv: { VSPHERE_VM_PULL_INTERVAL_MS: '0', VSPHERE_VM_WATCH_MAX_WAIT_SECONDS: '10' },
    });
    vim = await market.vim();
    vm = await orderVm(market, 'e2e-push-1', await market.vmPlacement());
    stream = await SseClient.open(`${market.api.base}/api/events?type=VmChanged`, {
      token: market.api.tokens.member,
    });
    expect(stream.status).toBe(200);
  });

  afterAll(async () => {
    stream?.close();
    console.log(`change → SSE (ms): ${JSON.stringify(latencies)}`);
    await market?.stop();
  });

  const ref = (): MoRef => ({ type: 'VirtualMachine', value: vm.backend_id });
  const inVcsim = async (): Promise<VmInfo> =>
    (await readVirtualMachines(vim)).find((info) => info.instanceUuid === vm.uuid) as VmInfo;
  const getVm = () => market.api.ok<Vm>('member', 'GET', `/api/vmware-virtual-machine/${vm.uuid}/`);

  /**
   * Makes `change` in vcsim, then waits for the first VmChanged after it that `shows` it (of no
   * operation: vCenter's own change), and for REST to show it too. Records the latency.
   */
  async function pushed(
    what: string,
    change: () => Promise<unknown>,
    shows: (vm: VmChangedData) => boolean,
  ): Promise<VmChangedData> {
    const before = vmChanges(stream, vm.uuid).length;
    await change();
    const changed = performance.now();
    const found = () =>
      vmChanges(stream, vm.uuid)
        .slice(before)
        .find((e) => shows(e));
    await stream.waitFor(() => found() !== undefined, 15_000, `the VmChanged of ${what}`);
    latencies[what] = Math.round(performance.now() - changed);
    const event = found()!;
    expect(event.operation).toBeNull();
    await eventually(getVm, (now) => shows({ ...now, operation: null }), 10_000, `REST showing ${what}`);
    return event;
  }

  it('holds a live subscription to the vCenter, as /health shows', async () => {
    const health = await eventually(
      async () =>
        (await fetch(`${market.api.base}/health`)).json() as Promise<{
          services: Record<string, HealthReport>;
        }>,
      (h) => h.services['vsphere-adapter']?.vcenter_subscriptions?.[0]?.state === 'live',
      20_000,
      'a live subscription in /health',
    );
    expect(health.services['vsphere-adapter'].vcenter_subscriptions).toEqual([
      expect.objectContaining({ offering_uuid: market.offering.uuid, state: 'live' }),
    ]);
  });

  it('powered off in vcsim: POWERED_OFF', async () => {
    const event = await pushed(
      'power-off',
      () => powerOffVm(vim, ref()),
      (e) => e.runtime_state === 'POWERED_OFF',
    );
    expect(event).toMatchObject({ state: 'OK' });
    expect((await inVcsim()).powerState).toBe('poweredOff');
  });

  it('resized in vcsim: the new CPU count and RAM', async () => {
    await pushed(
      'resize',
      () => reconfigureHardware(vim, ref(), { numCPUs: 4, memoryMB: 4096 }),
      (e) => e.cores === 4 && e.ram === 4096,
    );
  });

  it('given a disk in vcsim: a new disk, OK, of its size', async () => {
    const disks = (await getVm()).disks.length;
    const event = await pushed(
      'new disk',
      () => addDisk(vim, ref(), { capacityInKB: 3 * 1024 * 1024 }),
      (e) => e.disks.length === disks + 1,
    );
    expect(event.disks.find((d) => d.size === 3072)).toMatchObject({ state: 'OK' });
  });

  it('stripped of its adapter in vcsim: no adapter', async () => {
    const nic = (await inVcsim()).devices.find((d) => d.kind === 'nic')!;
    await pushed(
      'removed adapter',
      () => removeNic(vim, ref(), nic.key),
      (e) => e.ports.length === 0,
    );
  });

  it('renamed in vcsim: the new name', async () => {
    await pushed(
      'rename',
      async () => {
        const task = asMoRef(
          await invoke(vim.caller, 'Rename_Task', ref(), { newName: 'e2e-push-renamed' }),
        )!;
        await waitForTask(vim.caller, vim.content.propertyCollector, { ref: task, operation: 'Rename_Task' });
      },
      (e) => e.name === 'e2e-push-renamed',
    );
  });

  it('deleted in vcsim: ERRED with the reason', async () => {
    await pushed(
      'delete',
      () => destroyVm(vim, ref()),
      (e) => e.state === 'ERRED' && e.error_message === VM_GONE,
    );
  });
});
