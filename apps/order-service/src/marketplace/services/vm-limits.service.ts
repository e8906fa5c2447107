import { Injectable } from '@nestjs/common';
import { VM_GONE_FROM_VCENTER, type Envelope, type VmChanged } from '@app/contracts';
import { DONE, InboxRepository, type HandlerOutcome } from '@app/messaging';
import type { Transaction } from '../../identity';
import {
  limitsAfterObservation,
  sameLimits,
  type ObservedChange,
  type ObservedVm,
} from '../domain/observed-limits';
import { QuotaRepository } from '../repositories/quota.repository';
import { OrderViewRepository } from '../repositories/order-view.repository';
import { ResourceRepository } from '../repositories/resource.repository';
import { EventOutbox } from '../repositories/event-outbox.repository';

/**
 * Keeps a VMware resource's limits (cpu, ram, disk) as its VM is: a resize, a disk added, grown or
 * removed, or a change a drift pull found, each reported by the adapter as VmChanged. Once per
 * event, under the resource's row lock; a changed resource gets its ResourceStateChanged in the
 * same transaction (correlated by the resource's uuid: no order caused it). The event of an
 * operation's end also releases the quota reservation the operation held.
 */
@Injectable()
export class VmLimitsService {
  constructor(
    private readonly inbox: InboxRepository,
    private readonly resources: ResourceRepository,
    private readonly views: OrderViewRepository,
    private readonly events: EventOutbox,
    private readonly quotas: QuotaRepository,
  ) {}

  async onVmChanged(envelope: Envelope<VmChanged>): Promise<HandlerOutcome> {
    const { vm } = envelope.data;
    const observedAt = new Date(envelope.occurredAt);
    const ended = envelope.data.operation;
    const applied = await this.inbox.runOnce(envelope, async (manager) => {
      // The operation that ended held a quota reservation (a disk, a resize asked on the VM):
      // released in the transaction that takes the VM's recorded size, so growth is never
      // counted by neither (done: the limits below count it; erred: nothing grew).
      if (ended !== null && (ended.state === 'done' || ended.state === 'erred'))
        await this.quotas.release(ended.uuid, manager);
      // A VM deleted in vCenter frees its quotas in this transaction; one that comes back takes them again.
      const gone = vm.state === 'ERRED' && vm.error_message === VM_GONE_FROM_VCENTER;
      const change = await this.observe(manager, vm.marketplace_resource_uuid, { ...vm, gone }, observedAt, {
        latest: true,
      });
      return change !== null;
    });
    if (!applied.duplicate && applied.result) this.events.wake();
    return DONE;
  }

  /**
   * Takes a VM's size and presence into its resource under the resource's row lock, in `tx`: its
   * backend_gone, and its limits by the rule of `limitsAfterObservation`; a resource whose limits
   * or backend_gone changed gets its ResourceStateChanged in `tx`. Returns the change, or null.
   *
   * `latest`: the observation becomes the resource's latest (a VmChanged), so an older one that
   * arrives later is ignored. The quota recount's read is not: a VmChanged still in flight from a
   * change committed after the read may be older than it and must still apply; the recount also
   * leaves a resource alone (backend_gone included) when a later VmChanged was already taken.
   */
  async observe(
    tx: Transaction,
    marketplaceResourceUuid: string,
    vm: ObservedVm,
    observedAt: Date,
    { latest }: { latest: boolean },
  ): Promise<ObservedChange | null> {
    const resource = await this.resources.getForUpdate(tx, marketplaceResourceUuid);
    if (!resource) return null;
    const limits = limitsAfterObservation(resource, vm, observedAt);
    if (!latest && limits === null) return null;
    // A report older than the last one taken (a VmChanged redelivered late) says nothing of the
    // VM's presence either.
    const stale = resource.limitsObservedAt !== null && observedAt < resource.limitsObservedAt;
    const goneChanged = !stale && (await this.quotas.setBackendGone(tx, resource.uuid, vm.gone));
    const limitsChanged = limits !== null && !sameLimits(limits, resource.limits);
    if (limits !== null)
      await this.resources.update(tx, resource.uuid, {
        ...(latest && { limitsObservedAt: observedAt }),
        ...(limitsChanged && { limits }),
      });
    if (!limitsChanged && !goneChanged) return null;
    const view = await this.views.resource(resource.uuid, tx);
    if (view)
      await this.events.resourceStateChanged(
        tx,
        { resource: view, previous_state: resource.state },
        resource.uuid,
      );
    return {
      before: { limits: resource.limits, backend_gone: goneChanged ? !vm.gone : vm.gone },
      after: { limits: limitsChanged ? limits : resource.limits, backend_gone: vm.gone },
    };
  }
}
