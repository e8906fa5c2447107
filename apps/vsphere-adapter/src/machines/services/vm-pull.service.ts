import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { Logger } from '@app/platform';
import { LOGGER } from '../../adapters/runtime-providers';
import { CONFIG, type VsphereAdapterConfig } from '../../config/vsphere-adapter.config';
import { SyncLockRepository } from '../../integration/repositories/sync-lock.repository';
import { VcenterAccessService } from '../../integration/services/vcenter-access.service';
import { UnitOfWork } from '@app/messaging';
import { VM_PROVISIONER, type RemoteVm, type VmProvisioner } from '../../vcenter/ports/vm-provisioner.port';
import { PlacementRepository } from '../repositories/placement.repository';
import { VmOperationRepository } from '../repositories/vm-operation.repository';
import { VmPullStateRepository } from '../repositories/vm-pull-state.repository';
import { VmViewRepository } from '../repositories/vm-view.repository';
import { VmWatchStateRepository } from '../repositories/vm-watch-state.repository';
import { vmDrifted, type RecordedVm } from '../domain/vm-drift';
import { VmOperationMetrics } from '../../metrics/vm-operation-metrics';
import { VmWatchMetrics } from '../../metrics/vm-watch-metrics';
import { VmRecordService, type RemoteReadOptions } from './vm-record.service';

/** When a part compared by reconcilePart was read from vCenter. */
export type ReadTimes = Pick<RemoteReadOptions, 'readSince' | 'answeredAt'>;

/**
 * Drift (reconciliation beside the live subscription of VmWatchService, which records changes as
 * vCenter pushes them; what the periodic pull still finds is counted as missed by it): every
 * VSPHERE_VM_PULL_INTERVAL_MS, each offering's vCenter is read page by page
 * (VSPHERE_VM_PULL_PAGE_SIZE VMs, one property-collector round trip each), each page's managed VMs
 * compared in memory with what is recorded of them (a few queries per page), and each changed one
 * recorded as an operation's read-back
 * records it (VmChanged with `operation: null`); a VM gone from vCenter turns ERRED. A pull that
 * finds nothing changed opens no transaction. One instance
 * pulls an offering at a time (an advisory lock). VMs with an operation queued or running are left
 * to it: its read-back records them.
 */
@Injectable()
export class VmPullService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private round: Promise<void> | null = null;
  private readonly stop = new AbortController();

  constructor(
    @Inject(CONFIG) private readonly config: VsphereAdapterConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(VM_PROVISIONER) private readonly vcenter: VmProvisioner,
    private readonly access: VcenterAccessService,
    private readonly locks: SyncLockRepository,
    private readonly vms: VmViewRepository,
    private readonly operations: VmOperationRepository,
    private readonly recordedState: VmPullStateRepository,
    private readonly watchStates: VmWatchStateRepository,
    private readonly placement: PlacementRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly recorder: VmRecordService,
    private readonly metrics: VmOperationMetrics,
    private readonly watchMetrics: VmWatchMetrics,
  ) {}

  onApplicationBootstrap(): void {
    const every = this.config.VSPHERE_VM_PULL_INTERVAL_MS;
    if (every === 0) return;
    this.timer = setInterval(() => void this.pullAll(), every);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.stop.abort(new Error('the vSphere adapter is stopping'));
    await this.round;
  }

  /** One round over every offering with VMs; a round still running is not doubled. */
  pullAll(): Promise<void> {
    this.round ??= this.pullOfferings().finally(() => {
      this.round = null;
    });
    return this.round;
  }

  private async pullOfferings(): Promise<void> {
    for (const offering of await this.vms.offeringsWithVms().catch((error: unknown) => {
      this.logger.error({ err: error }, 'listing the offerings to pull failed');
      return [];
    })) {
      if (this.stop.signal.aborted) return;
      try {
        const run = await this.locks.withLock(offering, () => this.pullOffering(offering), 'vmPull');
        // With the live subscription on, whatever the periodic pull still finds, it had missed.
        if (run.acquired && this.config.VSPHERE_VM_WATCH)
          this.watchMetrics.missedByWatch.inc({ offering_uuid: offering }, run.result);
      } catch (error) {
        this.logger.warn({ err: error, offeringUuid: offering }, 'pulling the VMs of an offering failed');
      }
    }
  }

  /** Reads the offering's vCenter page by page and records the VMs that changed. */
  async pullOffering(offeringUuid: string): Promise<number> {
    const took = this.metrics.pullSeconds.startTimer();
    const changed = await this.compareOffering(offeringUuid);
    took();
    return changed;
  }

  /**
   * The offering's vCenter read page by page (VSPHERE_VM_PULL_PAGE_SIZE VMs), each page compared
   * and recorded before the next is asked for, then the managed VMs no page named recorded as
   * gone. Only the managed VMs' uuids are kept between pages: memory follows a page, not the
   * number of VMs. The adapter stopping ends the read between pages (the rest cancelled, nothing
   * recorded as gone).
   */
  private async compareOffering(offeringUuid: string): Promise<number> {
    const access = await this.access.forOffering(offeringUuid);
    if (access === null) return 0;
    const signal = this.stop.signal;
    // Taken before vCenter is read: a VM the live subscription or an operation records while the
    // read is under way keeps what they recorded (they read vCenter after this read began).
    const readSince = await this.vms.now();
    const unseen = await this.watchStates.backendUuids(offeringUuid);
    const pageSize = this.config.VSPHERE_VM_PULL_PAGE_SIZE;
    let changed = 0;
    for await (const page of this.vcenter.readPages(await access.connection(), {
      signal,
      timeoutMs: this.config.VSPHERE_CALL_TIMEOUT_MS,
      pageSize,
    })) {
      signal.throwIfAborted();
      // Only managed VMs are compared; one named twice (vCenter's pages are not a snapshot) once.
      const managed = page.filter((vm) => unseen.delete(vm.uuid));
      changed += await this.reconcilePart(offeringUuid, managed, [], { readSince });
    }
    signal.throwIfAborted();
    const gone = [...unseen];
    for (let at = 0; at < gone.length; at += pageSize)
      changed += await this.reconcilePart(offeringUuid, [], gone.slice(at, at + pageSize), { readSince });
    return changed;
  }

  /**
   * Compares the recorded VMs of the offering that `remotes` (a part of vCenter's VMs) name, and
   * those of `absent` (vCenter uuids it has no VM of any more), and records each that changed, an
   * absent one as gone; the rest is left as it is. `read` says when the read of `remotes` began or
   * was answered, as recordRemote weighs them. Returns how many were recorded. What a pull and the
   * live subscription's initial state are compared with, part by part, so that memory follows a part.
   */
  async reconcilePart(
    offeringUuid: string,
    remotes: readonly RemoteVm[],
    absent: readonly string[] = [],
    read: ReadTimes = {},
  ): Promise<number> {
    const uuids = [...remotes.map((vm) => vm.uuid), ...absent];
    if (uuids.length === 0) return 0;
    const [recorded, networks] = await Promise.all([
      this.recordedState.ofOffering(offeringUuid, uuids),
      this.placement.networksByBackendId(offeringUuid),
    ]);
    return this.compare(recorded, remotes, networks, read);
  }

  private async compare(
    recorded: readonly RecordedVm[],
    remotes: readonly RemoteVm[],
    networks: ReadonlyMap<string, string>,
    read: ReadTimes,
  ): Promise<number> {
    const byUuid = new Map<string, RemoteVm>(remotes.map((vm) => [vm.uuid, vm]));
    const busy = await this.operations.busyVms(recorded.map((vm) => vm.rowUuid));
    this.metrics.pulledVms.inc(recorded.length);
    let changed = 0;
    for (const vm of recorded) {
      if (busy.has(vm.rowUuid)) continue;
      const remote = byUuid.get(vm.backendUuid);
      if (!vmDrifted(vm, remote, networks)) continue;
      const appended = await this.unitOfWork.run((tx) =>
        remote === undefined
          ? this.recorder.recordGone(tx, vm.rowUuid, null, read.readSince)
          : this.recorder.recordRemote(tx, vm.rowUuid, remote, networks, null, read),
      );
      if (appended) changed++;
    }
    if (changed > 0) this.recorder.wake();
    return changed;
  }
}
