import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  componentsOf,
  invalidField,
  monthlyEstimate,
  ok,
  refuse,
  uuidOfHyperlink,
  VMWARE_VM_TYPE,
  type ChangeOrderType,
  type OperationRequest,
  type ORDER_OPERATIONS,
  type OrderCreatedView,
  type OrderDraftView,
  type OrderType,
  type OrderView,
  type RequestReply,
  type RESOURCE_OPERATIONS,
  type ResourceView,
} from '@app/contracts';
import { canActForProvider, canSeeProject, type Principal } from '../../identity';
import type { OfferingEntity } from '../entities/offering.entity';
import { EventOutbox } from '../repositories/event-outbox.repository';
import { OrderRepository } from '../repositories/order.repository';
import { UnitOfWork, type Transaction } from '../../identity';
import type { StoreAnswer } from './idempotent-requests.service';
import { denied, FORBIDDEN, NOT_FOUND } from '../../identity';
import {
  canSeeOrder,
  decideOrderCreate,
  initialState,
  resourceStateWhilePending,
  type OrderScope,
} from '../domain/order-review';
import { ORDER_VALIDATION_PORT, type OrderValidationPort } from '../ports/order-validation.port';
import { OfferingRepository } from '../repositories/offering.repository';
import { OrderPlacementRepository, type PlacementContext } from '../repositories/order-placement.repository';
import { OrderViewRepository } from '../repositories/order-view.repository';
import { PlanRepository } from '../repositories/plan.repository';
import { ResourceRepository } from '../repositories/resource.repository';
import { checkEndDate } from '../domain/end-date-rules';
import { QuotaService } from './quota.service';
import { orderGrowth } from '../domain/quota-rules';
import { OrderTransitions } from './order-transitions.service';

type OrderOps = typeof ORDER_OPERATIONS;
type ResourceOps = typeof RESOURCE_OPERATIONS;

const NOT_A_LINK = 'Invalid hyperlink - Object does not exist.';
export const PENDING_ORDER_EXISTS = 'Pending order for resource already exists.';
/** What an Update order may change on a VM: its hardware, not its disks (they are resized on their own). */
const UPDATABLE_VM_LIMITS = new Set(['cpu', 'ram']);

interface Placement {
  offering: NonNullable<PlacementContext['offering']> & { customerUuid: string };
  project: NonNullable<PlacementContext['project']>;
  plan: PlacementContext['plan'];
  /** The ordering user's username, for the order's view. */
  username: string | null;
  attributes: Record<string, unknown>;
  limits: Record<string, number>;
  cost: string | null;
  /** Waldur's `end_date` attribute: when the system terminates what the order makes. */
  endDate: Date | null;
}

/**
 * New orders: Create (with `?dry_run=true`), and the Update and Terminate orders of a resource.
 * Everything is checked before anything is stored (the adapter checks what only it knows); the order,
 * its resource and their events are then written in one transaction.
 */
@Injectable()
export class OrderPlacementService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly events: EventOutbox,
    private readonly orders: OrderRepository,
    private readonly resources: ResourceRepository,
    private readonly offerings: OfferingRepository,
    private readonly plans: PlanRepository,
    private readonly placements: OrderPlacementRepository,
    private readonly views: OrderViewRepository,
    private readonly transitions: OrderTransitions,
    private readonly quotas: QuotaService,
    @Inject(ORDER_VALIDATION_PORT) private readonly validation: OrderValidationPort,
  ) {}

  /** `storeAnswer` keeps the answer under the request's Idempotency-Key, in the order's transaction. */
  async create(
    request: OperationRequest<OrderOps['create']>,
    principal: Principal,
    storeAnswer?: StoreAnswer,
  ): Promise<RequestReply<OrderView | OrderDraftView>> {
    const { body } = request;
    const deadline = request.meta?.deadline;
    // The project, the offering, the plan with its prices and the user's name: one statement.
    const context = await this.placements.context(
      uuidOfHyperlink(body.project),
      uuidOfHyperlink(body.offering),
      body.plan === undefined ? null : uuidOfHyperlink(body.plan),
      principal.userUuid,
    );
    const { project, offering, plan } = context;
    if (!project || !canSeeProject(principal, project)) return refuse(404, NOT_FOUND);
    const decision = decideOrderCreate(principal, project);
    if (decision !== 'allow') return denied(decision);
    if (!offering || offering.customerUuid === null) return invalidField('offering', NOT_A_LINK);
    const provider = offering as typeof offering & { customerUuid: string };
    if (offering.state !== 'Active') return invalidField('offering', 'Offering is not available.');
    if (body.plan !== undefined) {
      if (!plan) return invalidField('plan', NOT_A_LINK);
      if (plan.plan.offeringUuid !== offering.uuid)
        return invalidField('plan', 'This plan is not available for selected offering.');
      if (plan.plan.archived) return invalidField('plan', 'This plan is archived and cannot be ordered.');
    }
    if (offering.termsOfService.trim() !== '' && body.accepting_terms_of_service !== true)
      return invalidField(
        'accepting_terms_of_service',
        `Terms of service for offering '${offering.name}' have not been accepted.`,
      );
    // The end date is the marketplace's, not the adapter's: checked here, kept in the order's attributes.
    const { end_date: endDateValue, ...backendAttributes } = body.attributes;
    const endDate = checkEndDate(
      endDateValue ?? null,
      new Date(),
      offering.maxResourceTerminationOffsetInDays ?? null,
    );
    if (!endDate.ok) return invalidField('end_date', endDate.message);
    const checked = await this.check(
      provider,
      project.customerUuid,
      'Create',
      backendAttributes,
      body.limits,
      null,
      deadline,
    );
    if (checked.status === 'error') return checked;
    const { limits } = checked.data;
    const attributes =
      endDate.endDate === null
        ? checked.data.attributes
        : { ...checked.data.attributes, end_date: endDateValue };
    const placement: Placement = {
      offering: provider,
      project,
      plan: body.plan === undefined ? null : plan,
      username: context.username,
      attributes,
      limits,
      cost: plan ? monthlyEstimate(componentsOf(offering.type), plan.prices, limits) : null,
      endDate: endDate.endDate,
    };
    if (request.query.dry_run === true) {
      const growth = orderGrowth(offering.type, 'Create', null, limits, {
        before: null,
        after: placement.cost,
      });
      const refused = await this.quotas.preview(project, growth);
      return refused ?? ok(this.draft(placement));
    }
    return this.store(placement, principal, storeAnswer, deadline);
  }

  async updateLimits(
    request: OperationRequest<ResourceOps['updateLimits']>,
    principal: Principal,
    storeAnswer?: StoreAnswer,
  ): Promise<RequestReply<OrderCreatedView>> {
    const found = await this.orderable(request.params.uuid, principal, ['OK'], 'updated');
    if ('status' in found) return found;
    const { resource, offering } = found;
    if (offering.type === VMWARE_VM_TYPE) {
      for (const [key, value] of Object.entries(request.body.limits)) {
        if (key === 'disk' && value !== resource.limits.disk)
          return invalidField('disk', 'Disks cannot be changed by an update order: only cpu and ram can.');
        if (key !== 'disk' && !UPDATABLE_VM_LIMITS.has(key))
          return invalidField(key, 'Only cpu and ram can be changed by an update order.');
      }
    }
    const wanted = { ...resource.limits, ...request.body.limits };
    const checked = await this.check(
      offering,
      resource.customer_uuid,
      'Update',
      resource.attributes,
      wanted,
      resource.resource_uuid,
      request.meta?.deadline,
    );
    if (checked.status === 'error') return checked;
    const plan = resource.plan_uuid ? await this.plans.getById(resource.plan_uuid) : null;
    const cost = plan ? monthlyEstimate(componentsOf(offering.type), plan.prices, checked.data.limits) : null;
    return this.change(
      resource,
      principal,
      'Update',
      resource.attributes,
      checked.data.limits,
      cost,
      ['OK'],
      {
        storeAnswer,
        deadline: request.meta?.deadline,
      },
    );
  }

  async terminate(
    request: OperationRequest<ResourceOps['terminate']>,
    principal: Principal,
    storeAnswer?: StoreAnswer,
  ): Promise<RequestReply<OrderCreatedView>> {
    const allowed: ResourceView['state'][] = ['OK', 'Erred'];
    const found = await this.orderable(request.params.uuid, principal, allowed, 'terminated');
    if ('status' in found) return found;
    const { resource, offering } = found;
    const checked = await this.check(
      offering,
      resource.customer_uuid,
      'Terminate',
      request.body.attributes,
      resource.limits,
      resource.resource_uuid,
      request.meta?.deadline,
    );
    if (checked.status === 'error') return checked;
    return this.change(
      resource,
      principal,
      'Terminate',
      checked.data.attributes,
      resource.limits,
      resource.cost,
      allowed,
      { storeAnswer, deadline: request.meta?.deadline },
    );
  }

  /** A resource the caller may order changes of, in one of `states`, with no pending order. */
  private async orderable(
    uuid: string,
    principal: Principal,
    states: ResourceView['state'][],
    verb: 'updated' | 'terminated',
  ): Promise<RequestReply<never> | { resource: ResourceView; offering: OfferingEntity }> {
    const resource = await this.views.resource(uuid);
    if (!resource) return refuse(404, NOT_FOUND);
    const project = { uuid: resource.project_uuid, customerUuid: resource.customer_uuid };
    if (!canSeeOrder(principal, { project, providerUuid: resource.provider_uuid }))
      return refuse(404, NOT_FOUND);
    // Waldur lets the provider's owners terminate what their offering provides, without review.
    const providerTerminates = verb === 'terminated' && canActForProvider(principal, resource.provider_uuid);
    if (decideOrderCreate(principal, project) !== 'allow' && !providerTerminates)
      return refuse(403, FORBIDDEN);
    const refused = await this.uow.run((tx) => this.conflict(tx, resource, states, verb));
    if (refused) return refused;
    const offering = await this.offerings.getById(resource.offering_uuid);
    if (!offering) return refuse(404, NOT_FOUND);
    // Waldur: a paused offering still serves its resources; only a Terminate needs no offering at all.
    if (verb === 'updated' && offering.state !== 'Active' && offering.state !== 'Paused')
      return invalidField('offering', 'Offering is not available.');
    return { resource, offering };
  }

  private async conflict(
    tx: Transaction,
    resource: Pick<ResourceView, 'uuid' | 'state'>,
    states: ResourceView['state'][],
    verb: string,
  ): Promise<RequestReply<never> | null> {
    // Waldur's check first: a resource waiting for its order is told so, whatever state it waits in.
    if (await this.orders.hasPending(tx, resource.uuid)) return refuse(400, PENDING_ORDER_EXISTS);
    if (!states.includes(resource.state))
      return refuse(
        409,
        `Resource is ${resource.state}: only ${states.join(' or ')} resources can be ${verb}.`,
      );
    return null;
  }

  /** The adapter's check of a VMware order; other types are taken as they are. */
  private async check(
    offering: Pick<OfferingEntity, 'uuid' | 'type'>,
    customerUuid: string,
    type: OrderType,
    attributes: Record<string, unknown>,
    limits: Record<string, number>,
    vmUuid: string | null,
    deadline: number | undefined,
  ): Promise<RequestReply<{ attributes: Record<string, unknown>; limits: Record<string, number> }>> {
    if (offering.type !== VMWARE_VM_TYPE) return ok({ attributes, limits });
    return this.validation.validate(
      {
        offering_uuid: offering.uuid,
        customer_uuid: customerUuid,
        type,
        attributes,
        limits,
        vm_uuid: vmUuid,
      },
      deadline,
    );
  }

  private draft(placement: Placement): OrderDraftView {
    const { offering, project, plan, attributes, limits, cost } = placement;
    return {
      type: 'Create',
      offering_uuid: offering.uuid,
      offering_name: offering.name,
      offering_type: offering.type,
      project_uuid: project.uuid,
      project_name: project.name,
      customer_uuid: project.customerUuid,
      customer_name: project.customerName,
      plan_uuid: plan?.plan.uuid ?? null,
      plan_name: plan?.plan.name ?? null,
      provider_uuid: offering.customerUuid,
      provider_name: offering.providerName,
      attributes,
      limits,
      cost,
    };
  }

  private async store(
    placement: Placement,
    principal: Principal,
    storeAnswer: StoreAnswer | undefined,
    deadline: number | undefined,
  ): Promise<RequestReply<OrderView>> {
    const { offering, project, plan, attributes, limits, cost, endDate } = placement;
    const orderUuid = randomUUID();
    const marketplaceResourceUuid = randomUUID();
    const scope: OrderScope = {
      project,
      providerUuid: offering.customerUuid,
      offeringType: offering.type,
      type: 'Create',
      createdBy: principal.userUuid,
    };
    const state = initialState(principal, scope);
    const view = await this.uow.run(async (tx) => {
      // Under the organisation's and project's locks until the order is written: no race past a quota.
      const refused = await this.quotas.admit(
        tx,
        project,
        orderGrowth(offering.type, 'Create', null, limits, { before: null, after: cost }),
      );
      if (refused) return refused;
      const created = await this.placements.createOrder(tx, {
        orderUuid,
        marketplaceResourceUuid,
        state,
        context: { project, offering },
        plan: plan ? { uuid: plan.plan.uuid, name: plan.plan.name } : null,
        name: typeof attributes.name === 'string' ? attributes.name : '',
        description: typeof attributes.description === 'string' ? attributes.description : '',
        attributes,
        limits,
        cost,
        endDate,
        createdBy: principal.userUuid,
        createdByUsername: placement.username,
        consumerReviewed: state !== 'pending-consumer',
      });
      await storeAnswer?.(tx, ok(created));
      return created;
    }, deadline);
    if ('status' in view) return view;
    this.events.wake();
    return ok(view);
  }

  /** An Update or Terminate order of `resource`; the resource waits in Updating or Terminating. */
  private async change(
    resource: ResourceView,
    principal: Principal,
    type: ChangeOrderType,
    attributes: Record<string, unknown>,
    limits: Record<string, number>,
    cost: string | null,
    states: ResourceView['state'][],
    { storeAnswer, deadline }: { storeAnswer?: StoreAnswer; deadline?: number },
  ): Promise<RequestReply<OrderCreatedView>> {
    const orderUuid = randomUUID();
    const scope: OrderScope = {
      project: { uuid: resource.project_uuid, customerUuid: resource.customer_uuid },
      providerUuid: resource.provider_uuid,
      offeringType: resource.offering_type,
      type,
      createdBy: principal.userUuid,
    };
    const state = initialState(principal, scope);
    const outcome = await this.uow.run(async (tx): Promise<RequestReply<OrderCreatedView>> => {
      const locked = await this.resources.getForUpdate(tx, resource.uuid);
      if (!locked) return refuse(404, NOT_FOUND);
      // Checked again under the lock: another order may have been placed since the first check.
      const refused = await this.conflict(tx, locked, states, type === 'Update' ? 'updated' : 'terminated');
      if (refused) return refused;
      const growth = orderGrowth(resource.offering_type, type, locked.limits, limits, {
        before: locked.cost,
        after: cost,
      });
      const project = { uuid: resource.project_uuid, customerUuid: resource.customer_uuid };
      const overQuota = await this.quotas.admit(tx, project, growth);
      if (overQuota) return overQuota;
      const order = await this.orders.create(tx, {
        uuid: orderUuid,
        type,
        state,
        offeringUuid: resource.offering_uuid,
        projectUuid: resource.project_uuid,
        marketplaceResourceUuid: resource.uuid,
        planUuid: resource.plan_uuid,
        attributes,
        limits,
        cost,
        createdBy: principal.userUuid,
        ...this.selfReview(state, principal),
      });
      await this.resources.update(tx, resource.uuid, { state: resourceStateWhilePending(type) });
      const created = await this.transitions.record(tx, orderUuid, null, resource.uuid, locked.state, true);
      if (state === 'executing') await this.transitions.submit(tx, order, locked.backendId, created);
      const answer = ok({ order_uuid: orderUuid });
      await storeAnswer?.(tx, answer);
      return answer;
    }, deadline);
    if (outcome.status === 'ok') this.events.wake();
    return outcome;
  }

  /** An order its author needs not review is reviewed by them, as Waldur's `review_by_consumer`. */
  private selfReview(state: string, principal: Principal) {
    const consumerReviewed = state !== 'pending-consumer';
    return {
      consumerReviewedBy: consumerReviewed ? principal.userUuid : null,
      consumerReviewedAt: consumerReviewed ? new Date() : null,
      providerReviewedBy: null,
      providerReviewedAt: null,
    };
  }
}
