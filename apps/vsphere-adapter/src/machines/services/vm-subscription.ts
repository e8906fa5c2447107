import { performance } from 'node:perf_hooks';
import type { Logger } from '@app/platform';
import type { VsphereAdapterConfig } from '../../config/vsphere-adapter.config';
import type { VcenterAccessService } from '../../integration/services/vcenter-access.service';
import type { VmWatchMetrics } from '../../metrics/vm-watch-metrics';
import type { RemoteVm } from '../../vcenter/ports/vm-provisioner.port';
import {
  VmWatchLost,
  type VmUpdateBatch,
  type VmWatch,
  type VmWatchSource,
} from '../../vcenter/ports/vm-watch.port';
import { coalesceUpdates, withDeferred } from '../domain/vm-update-coalesce';
import type { VmWatchState, VmWatchStateRepository } from '../repositories/vm-watch-state.repository';
import type { VmPullService } from './vm-pull.service';
import type { VmUpdateApplier } from './vm-update-applier.service';

/** What one offering's subscription works with (the watch service's own collaborators). */
export interface VmSubscriptionDeps {
  readonly config: VsphereAdapterConfig;
  readonly logger: Logger;
  readonly access: VcenterAccessService;
  readonly source: VmWatchSource;
  readonly pulls: VmPullService;
  readonly applier: VmUpdateApplier;
  readonly states: VmWatchStateRepository;
  readonly metrics: VmWatchMetrics;
  /** This instance, as the state rows name their holder. */
  readonly holder: string;
  /** The database's clock, the one the VM records are stamped with. */
  readonly clock: () => Promise<Date>;
}

/** Why a full comparison was made. */
export type ResyncReason = 'start' | 'version' | 'session' | 'error';

/** Wait before the `failures`-th retry of a subscription that is down: 1 s doubling to 30 s. Pure. */
export function retryDelayMs(failures: number): number {
  return Math.min(30_000, 1_000 * 2 ** Math.max(0, failures - 1));
}

/** Transport hiccups in a row a live feed is resumed through (same feed, same version). */
const RESUMES = 3;

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * The live subscription of one offering's vCenter, for as long as this instance holds its lease:
 * open a feed (a filter over a container view of the VMs), take every VM's state from its initial
 * answer and compare it with the records (the pull's comparison: a full resync), then wait for
 * updates from the version, applying each answer as it comes. A version vCenter refuses, a
 * session that ended or any other failure ends the feed; a new one starts with a full comparison.
 * A `truncated` answer is the first part of more: the next wait at once takes the rest.
 */
export class VmSubscription {
  constructor(
    private readonly offeringUuid: string,
    private readonly deps: VmSubscriptionDeps,
  ) {}

  /** Runs until `signal` fires or the offering has no vCenter credentials any more. */
  async run(signal: AbortSignal): Promise<void> {
    let reason: ResyncReason = 'start';
    let failures = 0;
    try {
      while (!signal.aborted) {
        let watch: VmWatch | undefined;
        try {
          const access = await this.deps.access.forOffering(this.offeringUuid);
          if (access === null) {
            await this.setState('down', 'the offering has no vCenter credentials');
            return;
          }
          await this.setState(reason === 'start' ? 'starting' : 'resyncing', reason);
          watch = await this.deps.source.open(await access.connection(), signal);
          const version = await this.resync(watch, reason, signal);
          failures = 0;
          await this.setState('live', '', version);
          await this.follow(watch, version, signal);
        } catch (error) {
          if (signal.aborted) break;
          if (error instanceof VmWatchLost) {
            reason = error.reason;
            this.deps.logger.info(
              { offeringUuid: this.offeringUuid, reason, err: error },
              'the vCenter subscription lost its place: a full comparison, then live again',
            );
          } else {
            reason = 'error';
            failures++;
            const message = error instanceof Error ? error.message : String(error);
            this.deps.logger.warn(
              { offeringUuid: this.offeringUuid, err: error },
              'the vCenter subscription failed: retrying',
            );
            await this.setState('down', message).catch(() => undefined);
            await sleep(retryDelayMs(failures), signal);
          }
        } finally {
          await watch?.close();
        }
      }
    } finally {
      this.deps.metrics.setState(this.offeringUuid, null);
    }
  }

  /**
   * The initial answer compared with the records, page by page (maxObjectUpdates VMs each), then
   * the managed VMs no page named recorded as gone; its version. Only the managed VMs' uuids are
   * kept between pages: memory follows a page, not the number of VMs.
   */
  private async resync(watch: VmWatch, reason: ResyncReason, signal: AbortSignal): Promise<string> {
    this.deps.metrics.resyncs.inc({ offering_uuid: this.offeringUuid, reason });
    const unseen = await this.deps.states.backendUuids(this.offeringUuid);
    // Before the first wait: the initial answer is vCenter's state at the wait or later, so a VM a
    // pull records gone after this stays gone (RemoteReadOptions.answeredAt); the follow's `leave`
    // would put it right, but the organisation would count a deleted VM's quota until then.
    const answeredAt = await this.deps.clock();
    let version = '';
    for (;;) {
      const batch = await this.wait(watch, version, signal);
      // Nothing after a truncated part: the rest was empty. The initial answer always comes.
      if (batch === undefined) {
        if (version === '') continue;
        break;
      }
      const remotes: RemoteVm[] = [];
      for (const update of batch.updates)
        if (update.remote !== undefined && unseen.delete(update.remote.uuid)) remotes.push(update.remote);
      await this.deps.pulls.reconcilePart(this.offeringUuid, remotes, [], { answeredAt });
      version = batch.version;
      if (!batch.truncated) break;
    }
    await this.deps.pulls.reconcilePart(this.offeringUuid, [], [...unseen]);
    return version;
  }

  /** Waits and applies, answer after answer, until the feed ends. */
  private async follow(watch: VmWatch, from: string, signal: AbortSignal): Promise<never> {
    let version = from;
    let hiccups = 0;
    // VMs an answer named while an operation of theirs ran: read with the next answer, or at the
    // next idle heartbeat, until they are no longer busy.
    let deferred = new Set<string>();
    for (;;) {
      signal.throwIfAborted();
      let batch: VmUpdateBatch | undefined;
      try {
        batch = await this.wait(watch, version, signal);
        hiccups = 0;
      } catch (error) {
        // A dropped connection or a lost answer: the collector still has our version.
        if (error instanceof VmWatchLost || signal.aborted || ++hiccups > RESUMES) throw error;
        this.deps.logger.warn(
          { offeringUuid: this.offeringUuid, err: error },
          'resuming the vCenter subscription',
        );
        await sleep(retryDelayMs(hiccups), signal);
        continue;
      }
      if (batch === undefined && deferred.size === 0) {
        await this.setState('live', ''); // the heartbeat of an idle subscription
        continue;
      }
      const arrived = performance.now();
      const applied = await this.deps.applier.apply(
        this.offeringUuid,
        withDeferred(batch === undefined ? [] : coalesceUpdates(batch.updates), deferred),
        (which) => {
          this.deps.metrics.requests.inc({
            offering_uuid: this.offeringUuid,
            method: 'RetrievePropertiesEx',
          });
          return watch.read(which, signal);
        },
      );
      deferred = new Set(applied.deferred);
      if (batch !== undefined) version = batch.version;
      await this.setState('live', '', version);
      if (applied.changed > 0) {
        this.deps.metrics.applied.inc({ offering_uuid: this.offeringUuid }, applied.changed);
        this.deps.metrics.lagSeconds.observe((performance.now() - arrived) / 1000);
      }
    }
  }

  private wait(watch: VmWatch, version: string, signal: AbortSignal): Promise<VmUpdateBatch | undefined> {
    this.deps.metrics.requests.inc({ offering_uuid: this.offeringUuid, method: 'WaitForUpdatesEx' });
    return watch.next(version, {
      maxWaitSeconds: this.deps.config.VSPHERE_VM_WATCH_MAX_WAIT_SECONDS,
      maxObjectUpdates: this.deps.config.VSPHERE_VM_WATCH_MAX_OBJECT_UPDATES,
      signal,
    });
  }

  private async setState(state: VmWatchState, reason: string, version?: string): Promise<void> {
    this.deps.metrics.setState(this.offeringUuid, state);
    await this.deps.states.save(this.offeringUuid, this.deps.holder, state, reason, version);
  }
}
