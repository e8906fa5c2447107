import { Inject, Injectable } from '@nestjs/common';
import type { Envelope, VmChanged } from '@app/contracts';
import { DONE, SERVICE_RUNTIME, type HandlerOutcome, type ServiceRuntime } from '@app/messaging';
import { limitsAfterObservation, sameLimits } from '../marketplace/domain/observed-limits';
import { OrderViewRepository } from '../marketplace/repositories/order-view.repository';
import { ResourceRepository } from '../marketplace/repositories/resource.repository';
import { EventOutbox } from '../repositories/event-outbox.repository';

/**
 * Keeps a VMware resource's limits (cpu, ram, disk) as its VM is: a resize, a disk added, grown or
 * removed, or a change a drift pull found, each reported by the adapter as VmChanged. Once per
 * event, under the resource's row lock; a changed resource gets its ResourceStateChanged in the
 * same transaction (correlated by the resource's uuid: no order caused it).
 */
@Injectable()
export class VmLimitsService {
  constructor(
    @Inject(SERVICE_RUNTIME) private readonly runtime: ServiceRuntime,
    private readonly resources: ResourceRepository,
    private readonly views: OrderViewRepository,
    private readonly events: EventOutbox,
  ) {}

  async onVmChanged(envelope: Envelope<VmChanged>): Promise<HandlerOutcome> {
    const { vm } = envelope.data;
    const observedAt = new Date(envelope.occurredAt);
    const applied = await this.runtime.inbox.runOnce(envelope, async (manager) => {
      const resource = await this.resources.getForUpdate(manager, vm.marketplace_resource_uuid);
      if (!resource) return false;
      const limits = limitsAfterObservation(resource, vm, observedAt);
      if (limits === null) return false;
      const changed = !sameLimits(limits, resource.limits);
      await this.resources.update(manager, resource.uuid, {
        limitsObservedAt: observedAt,
        ...(changed && { limits }),
      });
      if (!changed) return false;
      const view = await this.views.resource(resource.uuid, manager);
      if (view)
        await this.events.resourceStateChanged(
          manager,
          { resource: view, previous_state: resource.state },
          resource.uuid,
        );
      return true;
    });
    if (!applied.duplicate && applied.result) this.events.wake();
    return DONE;
  }
}
