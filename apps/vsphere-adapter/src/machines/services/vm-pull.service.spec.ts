import type { Logger } from '@app/platform';
import type { UnitOfWork } from '@app/messaging';
import type { VsphereAdapterConfig } from '../../config/vsphere-adapter.config';
import type { SyncLockRepository } from '../../integration/repositories/sync-lock.repository';
import type { VcenterAccessService } from '../../integration/services/vcenter-access.service';
import type { VmOperationMetrics } from '../../metrics/vm-operation-metrics';
import type { VmWatchMetrics } from '../../metrics/vm-watch-metrics';
import type { RemoteVm, VmProvisioner } from '../../vcenter/ports/vm-provisioner.port';
import type { PlacementRepository } from '../repositories/placement.repository';
import type { VmOperationRepository } from '../repositories/vm-operation.repository';
import type { VmPullStateRepository } from '../repositories/vm-pull-state.repository';
import type { VmViewRepository } from '../repositories/vm-view.repository';
import type { VmWatchStateRepository } from '../repositories/vm-watch-state.repository';
import { VmPullService } from './vm-pull.service';
import type { VmRecordService } from './vm-record.service';

const vm = (uuid: string): RemoteVm => ({ uuid, moref: `vm-${uuid}` }) as RemoteVm;
const readSince = new Date('2026-12-02T02:00:00Z');

/**
 * A pull over a vCenter answering `pages`, the offering managing `managed`; the events in their
 * order: each page asked of vCenter, each part handed to the comparison, the read ended.
 */
function pullOver(managed: string[], pages: string[][], onPage: (at: number) => void = () => undefined) {
  const events: string[] = [];
  const since: (Date | undefined)[] = [];
  const noop = () => undefined;
  const vcenter = {
    async *readPages(_connection: unknown, options: { pageSize: number; signal: AbortSignal }) {
      events.push(`pageSize ${options.pageSize}`);
      try {
        for (const [at, uuids] of pages.entries()) {
          events.push(`read ${at + 1}`);
          onPage(at);
          await Promise.resolve(); // vCenter's round trip
          yield uuids.map(vm);
        }
      } finally {
        events.push('read ended');
      }
    },
  } as unknown as VmProvisioner;
  const service = new VmPullService(
    {
      VSPHERE_VM_PULL_INTERVAL_MS: 0,
      VSPHERE_VM_PULL_PAGE_SIZE: 2,
      VSPHERE_CALL_TIMEOUT_MS: 1_000,
    } as VsphereAdapterConfig,
    { info: noop, warn: noop, error: noop } as unknown as Logger,
    vcenter,
    {
      forOffering: () => Promise.resolve({ connection: () => Promise.resolve({}) }),
    } as unknown as VcenterAccessService,
    {} as SyncLockRepository,
    { now: () => Promise.resolve(readSince) } as unknown as VmViewRepository,
    {} as VmOperationRepository,
    {} as VmPullStateRepository,
    { backendUuids: () => Promise.resolve(new Set(managed)) } as unknown as VmWatchStateRepository,
    {} as PlacementRepository,
    {} as UnitOfWork,
    {} as VmRecordService,
    { pullSeconds: { startTimer: () => noop } } as unknown as VmOperationMetrics,
    {} as VmWatchMetrics,
  );
  jest.spyOn(service, 'reconcilePart').mockImplementation((_offering, remotes, absent = [], at) => {
    events.push(`compare [${remotes.map((r) => r.uuid).join(',')}] gone [${absent.join(',')}]`);
    since.push(at?.readSince);
    return Promise.resolve(remotes.length + absent.length);
  });
  return { service, events, since };
}

describe('VmPullService: the periodic pull', () => {
  it('compares each page before asking for the next, only its managed VMs, then records the VMs no page named as gone', async () => {
    const { service, events, since } = pullOver(
      ['a', 'b', 'd', 'x', 'y', 'z'],
      [['a', 'b'], ['c', 'd'], ['e']],
    );
    expect(await service.pullOffering('offering-1')).toBe(6);
    expect(events).toEqual([
      'pageSize 2',
      'read 1',
      'compare [a,b] gone []',
      'read 2',
      'compare [d] gone []',
      'read 3',
      'compare [] gone []',
      'read ended',
      // Gone ones go a page at a time too.
      'compare [] gone [x,y]',
      'compare [] gone [z]',
    ]);
    // The DB clock taken before the first page, on every part.
    expect(since).toEqual(Array(5).fill(readSince));
  });

  it('compares a VM once when a later page names it again', async () => {
    const { service, events } = pullOver(['a', 'b'], [['a'], ['a', 'b']]);
    await service.pullOffering('offering-1');
    expect(events.filter((e) => e.startsWith('compare'))).toEqual([
      'compare [a] gone []',
      'compare [b] gone []',
    ]);
  });

  it('stops between pages when the adapter stops: the read ended, nothing recorded gone', async () => {
    const stopping: { service?: VmPullService } = {};
    const pull = pullOver(['a', 'b', 'x'], [['a'], ['b'], ['c']], (at) => {
      if (at === 1) void stopping.service?.beforeApplicationShutdown();
    });
    stopping.service = pull.service;
    await expect(pull.service.pullOffering('offering-1')).rejects.toThrow('the vSphere adapter is stopping');
    expect(pull.events).toEqual(['pageSize 2', 'read 1', 'compare [a] gone []', 'read 2', 'read ended']);
  });
});
