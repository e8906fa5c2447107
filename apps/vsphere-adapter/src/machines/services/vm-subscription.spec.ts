import type { Logger } from '@app/platform';
import type { VsphereAdapterConfig } from '../../config/vsphere-adapter.config';
import type { VcenterAccessService } from '../../integration/services/vcenter-access.service';
import type { VmWatchMetrics } from '../../metrics/vm-watch-metrics';
import type { RemoteVm } from '../../vcenter/ports/vm-provisioner.port';
import type { VmUpdateBatch, VmWatch, VmWatchSource } from '../../vcenter/ports/vm-watch.port';
import type { VmWatchStateRepository } from '../repositories/vm-watch-state.repository';
import type { ReadTimes, VmPullService } from './vm-pull.service';
import type { VmUpdateApplier } from './vm-update-applier.service';
import { retryDelayMs, VmSubscription } from './vm-subscription';

describe('retryDelayMs', () => {
  it('doubles from 1 s and stops at 30 s', () => {
    expect([1, 2, 3, 5, 6, 20].map(retryDelayMs)).toEqual([1_000, 2_000, 4_000, 16_000, 30_000, 30_000]);
  });
});

const vm = (uuid: string): RemoteVm => ({ uuid, moref: `vm-${uuid}` }) as RemoteVm;
const page = (version: string, truncated: boolean, uuids: string[]): VmUpdateBatch => ({
  version,
  truncated,
  updates: uuids.map((uuid) => ({ moref: `vm-${uuid}`, kind: 'enter' as const, remote: vm(uuid) })),
});

/**
 * A vCenter whose initial answer comes in `pages` (each after the version of the one before),
 * then holds every wait until the subscription stops.
 */
function watchOf(pages: VmUpdateBatch[], steps: string[]): VmWatch {
  return {
    next: (version, wait) => {
      steps.push(`wait '${version}'`);
      const at = version === '' ? 0 : pages.findIndex((p) => p.version === version) + 1;
      if (at < pages.length) return Promise.resolve(pages[at]);
      return new Promise((resolve) => wait.signal.addEventListener('abort', () => resolve(undefined)));
    },
    read: () => Promise.resolve([]),
    close: () => Promise.resolve(),
  };
}

const answeredAt = new Date('2026-12-07T04:00:00Z');

/**
 * Runs a subscription until it is live; what its first comparison handed to the pull, call by
 * call, and the clock readings, waits and comparisons in their order.
 */
async function firstComparison(managed: string[], pages: VmUpdateBatch[]) {
  const calls: { remotes: string[]; absent: string[]; read: ReadTimes }[] = [];
  const steps: string[] = [];
  const stop = new AbortController();
  const noop = () => undefined;
  const deps = {
    config: {
      VSPHERE_VM_WATCH_MAX_WAIT_SECONDS: 30,
      VSPHERE_VM_WATCH_MAX_OBJECT_UPDATES: 3,
    } as VsphereAdapterConfig,
    logger: { info: noop, warn: noop } as unknown as Logger,
    access: {
      forOffering: () => Promise.resolve({ connection: () => Promise.resolve({}) }),
    } as unknown as VcenterAccessService,
    source: { open: () => Promise.resolve(watchOf(pages, steps)) } as VmWatchSource,
    pulls: {
      reconcilePart: (
        _offering: string,
        remotes: readonly RemoteVm[],
        absent: readonly string[] = [],
        read: ReadTimes = {},
      ) => {
        steps.push('compare');
        calls.push({ remotes: remotes.map((r) => r.uuid), absent: [...absent], read });
        return Promise.resolve(0);
      },
    } as unknown as VmPullService,
    applier: {} as VmUpdateApplier,
    states: {
      backendUuids: () => Promise.resolve(new Set(managed)),
      save: (_offering: string, _holder: string, state: string) => {
        if (state === 'live') stop.abort();
        return Promise.resolve();
      },
    } as unknown as VmWatchStateRepository,
    metrics: {
      resyncs: { inc: noop },
      requests: { inc: noop },
      setState: noop,
    } as unknown as VmWatchMetrics,
    holder: 'test',
    clock: () => {
      steps.push('clock');
      return Promise.resolve(answeredAt);
    },
  };
  await new VmSubscription('offering-1', deps).run(stop.signal);
  return { calls, steps };
}

describe('VmSubscription: the first comparison', () => {
  it('hands the pull one page at a time, only the managed VMs of that page, then the managed VMs no page named', async () => {
    const { calls } = await firstComparison(
      ['a', 'b', 'd', 'f', 'x', 'y'],
      [page('1', true, ['a', 'b', 'c']), page('2', true, ['d', 'e', 'f']), page('3', false, ['g'])],
    );
    expect(calls.map(({ remotes, absent }) => ({ remotes, absent }))).toEqual([
      { remotes: ['a', 'b'], absent: [] },
      { remotes: ['d', 'f'], absent: [] },
      { remotes: [], absent: [] },
      { remotes: [], absent: ['x', 'y'] },
    ]);
  });

  it('hands a VM on once even when a later page names it again', async () => {
    const { calls } = await firstComparison(
      ['a', 'b'],
      [page('1', true, ['a']), page('2', false, ['a', 'b'])],
    );
    expect(calls.map(({ remotes, absent }) => ({ remotes, absent }))).toEqual([
      { remotes: ['a'], absent: [] },
      { remotes: ['b'], absent: [] },
      { remotes: [], absent: [] },
    ]);
  });

  it('reads the database clock before its first wait and hands it as the answer time with every page, so a VM a pull records gone meanwhile stays gone', async () => {
    const { calls, steps } = await firstComparison(
      ['a', 'b'],
      [page('1', true, ['a']), page('2', false, ['b'])],
    );
    expect(steps).toEqual(['clock', "wait ''", 'compare', "wait '1'", 'compare', 'compare']);
    expect(calls.slice(0, 2).map((call) => call.read)).toEqual([{ answeredAt }, { answeredAt }]);
  });
});
