import {
  asMoRef,
  destroyVm,
  invoke,
  powerOffVm,
  powerOnVm,
  reconfigureHardware,
  waitForTask,
  type MoRef,
  type VimConnection,
} from '@app/vim25';
import { SseClient } from '../support/sse-client';
import { eventually, orderVm, vmChanges, type Vm, type VmChangedData } from '../support/virtual-machines';
import { VsphereMarketplace } from '../support/vsphere-marketplace';

jest.setTimeout(300_000);

const VM_GONE = 'The virtual machine no longer exists in vCenter.';

/** What a VmChanged says of a VM, to tell a repeated record from a new one. */
const shape = (e: VmChangedData): string =>
  [e.state, e.runtime_state, e.cores, e.name, e.error_message].map(String).join(' ');

/**
 * The live subscription survives an adapter crash: the adapter is SIGKILLed right after one change
 * and while more are made directly in vcsim; after its restart every change is recorded once (none
 * lost, none doubled), with the periodic pull off, so the subscription's own repair (its initial
 * state compared with the records) is what finds them.
 */
describe('push from vCenter across an adapter crash: every change recorded once after the restart', () => {
  let market: VsphereMarketplace;
  let vim: VimConnection;
  let kept: Vm;
  let doomed: Vm;
  let stream: SseClient;

  beforeAll(async () => {
    market = await VsphereMarketplace.start('vmwatchfaults', {
      adapterEnv: { VSPHERE_VM_PULL_INTERVAL_MS: '0', VSPHERE_VM_WATCH_MAX_WAIT_SECONDS: '10' },
    });
    vim = await market.vim();
    const placement = await market.vmPlacement();
    kept = await orderVm(market, 'fault-watch-1', placement);
    doomed = await orderVm(market, 'fault-watch-2', placement);
    stream = await SseClient.open(`${market.api.base}/api/events?type=VmChanged`, {
      token: market.api.tokens.member,
    });
  });

  afterAll(async () => {
    stream?.close();
    await market?.stop();
  });

  const ref = (vm: Vm): MoRef => ({ type: 'VirtualMachine', value: vm.backend_id });
  const getVm = (vm: Vm) => market.api.ok<Vm>('member', 'GET', `/api/vmware-virtual-machine/${vm.uuid}/`);

  it('records what changed while it was down once, then follows live again', async () => {
    await eventually(
      () => market.api.sql<{ state: string }>(`SELECT "state" FROM "vsphere"."vm_watch_states"`),
      (rows) => rows.length === 1 && rows[0].state === 'live',
      30_000,
      'a live subscription',
    );
    const since = {
      kept: vmChanges(stream, kept.uuid).length,
      doomed: vmChanges(stream, doomed.uuid).length,
    };

    // One change, then the crash at once: it may or may not have been recorded before.
    await powerOffVm(vim, ref(kept));
    await market.apps.adapter.stop('SIGKILL');
    await reconfigureHardware(vim, ref(kept), { numCPUs: 4 });
    const task = asMoRef(
      await invoke(vim.caller, 'Rename_Task', ref(kept), { newName: 'fault-watch-renamed' }),
    )!;
    await waitForTask(vim.caller, vim.content.propertyCollector, { ref: task, operation: 'Rename_Task' });
    await powerOffVm(vim, ref(doomed));
    await destroyVm(vim, ref(doomed));
    await market.restart('adapter');

    await eventually(
      () => getVm(kept),
      (vm) => vm.runtime_state === 'POWERED_OFF' && vm.cores === 4 && vm.name === 'fault-watch-renamed',
      30_000,
      'the kept VM as vCenter has it',
    );
    await eventually(
      () => getVm(doomed),
      (vm) => vm.state === 'ERRED' && vm.error_message === VM_GONE,
      30_000,
      'the deleted VM ERRED',
    );

    // Live again: a change after the restart is streamed, and marks the end of what came before.
    await powerOnVm(vim, ref(kept));
    await stream.waitFor(
      () =>
        vmChanges(stream, kept.uuid)
          .slice(since.kept)
          .some((e) => e.runtime_state === 'POWERED_ON'),
      30_000,
      'the power-on after the restart',
    );
    const keptShapes = vmChanges(stream, kept.uuid).slice(since.kept).map(shape);
    // Each record differs from the one before it (none doubled), and the last two are vCenter's.
    for (let i = 1; i < keptShapes.length; i++) expect(keptShapes[i]).not.toBe(keptShapes[i - 1]);
    expect(keptShapes.slice(-2)).toEqual([
      'OK POWERED_OFF 4 fault-watch-renamed ',
      'OK POWERED_ON 4 fault-watch-renamed ',
    ]);
    expect(keptShapes.length).toBeLessThanOrEqual(3);
    const doomedShapes = vmChanges(stream, doomed.uuid).slice(since.doomed).map(shape);
    expect(doomedShapes.filter((s) => s.startsWith('ERRED'))).toHaveLength(1);
    expect(doomedShapes.at(-1)).toContain(VM_GONE);
  });
});
