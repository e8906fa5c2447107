import { Inject, Injectable } from '@nestjs/common';
import {
  invalidField,
  ok,
  refuse,
  type EndDatesSweepView,
  type OperationRequest,
  type RequestReply,
  type RESOURCE_OPERATIONS,
  type ResourceView,
} from '@app/contracts';
import { LOGGER } from '@app/messaging';
import type { Logger } from '@app/platform/logging/json-logger';
import { CONFIG } from '../../config/config.token';
import type { OrderServiceConfig } from '../../config/order-service.config';
import type { Principal } from '../../identity';
import { EventOutbox } from '../repositories/event-outbox.repository';
import { UnitOfWork, FORBIDDEN, NOT_FOUND } from '../../identity';
import type { VsphereVmPowerClient } from '../adapters/vsphere-vm-power.client';
import { canSeeOrder, decideOrderCreate } from '../domain/order-review';
import { EndDateRepository } from '../repositories/end-date.repository';
import { OfferingRepository } from '../repositories/offering.repository';
import { OrderViewRepository } from '../repositories/order-view.repository';
import { ResourceRepository } from '../repositories/resource.repository';
import { OrderPlacementService } from './order-placement.service';
import { checkEndDate, dueWarnings } from '../domain/end-date-rules';
import { SystemCaller } from '../../identity';

export const VM_POWER = Symbol('VsphereVmPowerClient');
/** A stop asked for and not yet seen done is asked again after this long (it may have been lost). */
const STOP_AGAIN_AFTER_MS = 120_000;
const NOT_POWERED_OFF = /must be POWERED_OFF/;

/**
 * End dates of resources (Waldur's `end_date`): set by whoever may act on the resource, within the
 * offering's maximum lease; warned of before (a ResourceStateChanged whose `end_date_warnings`
 * gains the lead time, to the project on SSE); at it, a Terminate order placed by the system user
 * on the normal path (its VM asked to stop first when it runs, as termination requires).
 */
@Injectable()
export class EndDateService {
  constructor(
    @Inject(CONFIG) private readonly config: OrderServiceConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(VM_POWER) private readonly power: VsphereVmPowerClient,
    private readonly uow: UnitOfWork,
    private readonly events: EventOutbox,
    private readonly endDates: EndDateRepository,
    private readonly resources: ResourceRepository,
    private readonly offerings: OfferingRepository,
    private readonly views: OrderViewRepository,
    private readonly placement: OrderPlacementService,
    private readonly system: SystemCaller,
  ) {}

  async setEndDate(
    request: OperationRequest<(typeof RESOURCE_OPERATIONS)['setEndDate']>,
    principal: Principal,
  ): Promise<RequestReply<ResourceView>> {
    const resource = await this.views.resource(request.params.uuid);
    if (!resource) return refuse(404, NOT_FOUND);
    const project = { uuid: resource.project_uuid, customerUuid: resource.customer_uuid };
    if (!canSeeOrder(principal, { project, providerUuid: resource.provider_uuid }))
      return refuse(404, NOT_FOUND);
    // Seen (a provider's owners see it too), so a caller who may not act is told 403, never 404.
    if (decideOrderCreate(principal, project) !== 'allow') return refuse(403, FORBIDDEN);
    if (resource.state === 'Terminated' || resource.state === 'Terminating')
      return refuse(409, `Resource is ${resource.state}: its end date cannot be changed.`);
    const offering = await this.offerings.getById(resource.offering_uuid);
    const checked = checkEndDate(
      request.body.end_date,
      new Date(),
      offering?.maxResourceTerminationOffsetInDays ?? null,
    );
    if (!checked.ok) return invalidField('end_date', checked.message);
    const view = await this.uow.run(async (tx) => {
      const locked = await this.resources.getForUpdate(tx, resource.uuid);
      if (!locked) return null;
      await this.endDates.setEndDate(tx, resource.uuid, checked.endDate, principal.userUuid);
      const changed = await this.views.resource(resource.uuid, tx);
      if (changed)
        await this.events.resourceStateChanged(
          tx,
          { resource: changed, previous_state: locked.state },
          resource.uuid,
        );
      return changed;
    });
    if (!view) return refuse(404, NOT_FOUND);
    this.events.wake();
    return ok(view);
  }

  /** One pass over what end dates call for now; safe to repeat and to run twice at once. */
  async sweep(now = new Date()): Promise<EndDatesSweepView> {
    const warned = await this.warn(now);
    let stopping = 0;
    let terminated = 0;
    for (const due of await this.endDates.dueForTermination(now)) {
      const outcome = await this.terminate(due.uuid, due.stopRequestedAt, now);
      if (outcome === 'terminated') terminated += 1;
      if (outcome === 'stopping') stopping += 1;
    }
    if (warned + stopping + terminated > 0)
      this.logger.info({ warned, stopping, terminated }, 'end dates swept');
    return { warned, stopping, terminated };
  }

  private async warn(now: Date): Promise<number> {
    const leads = this.config.END_DATE_WARNINGS_S;
    let warned = 0;
    for (const uuid of await this.endDates.warningCandidates(now, Math.max(...leads))) {
      const given = await this.uow.run(async (tx) => {
        const row = await this.endDates.lock(tx, uuid);
        if (!row) return false;
        const due = dueWarnings(row.endDate, row.warnings, leads, now);
        if (due.length === 0) return false;
        await this.endDates.addWarnings(tx, uuid, due);
        const view = await this.views.resource(uuid, tx);
        if (view)
          await this.events.resourceStateChanged(tx, { resource: view, previous_state: view.state }, uuid);
        return true;
      });
      if (given) warned += 1;
    }
    if (warned > 0) this.events.wake();
    return warned;
  }

  /** The Terminate order of a resource whose end date came, or its VM asked to stop first. */
  private async terminate(
    uuid: string,
    stopRequestedAt: Date | null,
    now: Date,
  ): Promise<'terminated' | 'stopping' | 'waiting'> {
    await this.system.ready();
    const reply = await this.placement.terminate(
      {
        caller: { user_uuid: this.system.principal.userUuid },
        params: { uuid },
        query: {},
        body: { attributes: {} },
      },
      this.system.principal,
    );
    if (reply.status === 'ok') return 'terminated';
    if (reply.code !== 409 || !NOT_POWERED_OFF.test(reply.detail ?? '')) {
      this.logger.warn({ resource: uuid, refusal: reply }, 'end date reached; its Terminate was refused');
      return 'waiting';
    }
    if (stopRequestedAt !== null && now.getTime() - stopRequestedAt.getTime() < STOP_AGAIN_AFTER_MS)
      return 'waiting';
    const resource = await this.views.resource(uuid);
    if (!resource?.resource_uuid) return 'waiting';
    const stopped = await this.power.stop(resource.resource_uuid, await this.system.tokenKey());
    if (stopped === 'no answer' || stopped.status !== 'ok') {
      this.logger.warn({ resource: uuid, refusal: stopped }, 'end date reached; its VM could not be stopped');
      return 'waiting';
    }
    await this.endDates.markStopRequested(uuid, now);
    return 'stopping';
  }
}
