import { Injectable } from '@nestjs/common';
import { TERMINAL_ORDER_STATES, type OrderState, type OrderView, type ResourceState } from '@app/contracts';
import type { OrderEntity } from '../entities/order.entity';
import type { ResourceEntity } from '../entities/resource.entity';
import { EventOutbox } from '../repositories/event-outbox.repository';
import { OfferingRepository } from '../repositories/offering.repository';
import { OrderRepository, type OrderChanges } from '../repositories/order.repository';
import type { Transaction } from '../../identity';
import { resourceStateAfter, resourceStateWhilePending } from '../domain/order-review';
import { OrderViewRepository } from '../repositories/order-view.repository';
import { ResourceRepository, type ResourceChanges } from '../repositories/resource.repository';

/** What the backend reported when it carried out the order (OrderDone). */
export interface BackendResult {
  backendId?: string;
  backendRef?: string;
  limits?: Record<string, number>;
}

export interface TransitionInput {
  /** The order, read under its row lock in `tx`. */
  order: OrderEntity;
  to: OrderState;
  errorMessage?: string;
  backend?: BackendResult;
  review?: { by: string; as: 'consumer' | 'provider' };
}

/**
 * Moves an order to another state together with its resource, and writes OrderStateChanged and
 * ResourceStateChanged (and OrderSubmitted when the order reaches executing) in the same
 * transaction. The one place that knows what an order's state means for its resource.
 */
@Injectable()
export class OrderTransitions {
  constructor(
    private readonly orders: OrderRepository,
    private readonly resources: ResourceRepository,
    private readonly views: OrderViewRepository,
    private readonly events: EventOutbox,
    private readonly offerings: OfferingRepository,
  ) {}

  async apply(tx: Transaction, input: TransitionInput): Promise<void> {
    const { order, to } = input;
    const resource = await this.resources.getForUpdate(tx, order.marketplaceResourceUuid);
    if (!resource) throw new Error(`order ${order.uuid} has no resource ${order.marketplaceResourceUuid}`);
    const now = new Date();
    const changes: OrderChanges = { state: to };
    if (TERMINAL_ORDER_STATES.includes(to)) changes.completedAt = now;
    if (to === 'erred') changes.errorMessage = input.errorMessage ?? '';
    if (order.state === 'erred' && to === 'executing') changes.errorMessage = '';
    if (input.review?.as === 'consumer') Object.assign(changes, reviewed('consumer', input.review.by, now));
    if (input.review?.as === 'provider') Object.assign(changes, reviewed('provider', input.review.by, now));
    await this.orders.update(tx, order.uuid, changes);

    const resourceChanges = this.resourceChanges(order, resource, input);
    await this.resources.update(tx, resource.uuid, resourceChanges);
    const view = await this.record(
      tx,
      order.uuid,
      order.state,
      resource.uuid,
      resource.state,
      Object.keys(resourceChanges).length > 0,
    );
    if (to === 'executing') await this.submit(tx, order, resource.backendId, view);
  }

  /**
   * The events of a change already written: the order's (and the resource's, when it changed) views
   * as they are now. Answers the order's view (null for an order without one: see OrderViewRepository).
   */
  async record(
    tx: Transaction,
    orderUuid: string,
    previousOrderState: OrderState | null,
    marketplaceResourceUuid: string,
    previousResourceState: ResourceState | null,
    resourceChanged: boolean,
  ): Promise<OrderView | null> {
    const order = await this.views.order(orderUuid, tx);
    // An order without a public view (its offering has no provider) is seen by nobody: no events.
    if (!order) return null;
    const resource = resourceChanged ? await this.views.resource(marketplaceResourceUuid, tx) : null;
    const orderEvent = () => this.events.orderStateChanged(tx, { order, previous_state: previousOrderState });
    const resourceEvent = async () => {
      if (resource)
        await this.events.resourceStateChanged(
          tx,
          { resource, previous_state: previousResourceState },
          orderUuid,
        );
    };
    // An order's terminal event comes after what it did to its resource: whoever follows the order
    // (GET /api/marketplace-orders/{uuid}/events ends on it) has seen the resource's outcome by then.
    if (TERMINAL_ORDER_STATES.includes(order.state)) {
      await resourceEvent();
      await orderEvent();
    } else {
      await orderEvent();
      await resourceEvent();
    }
    return order;
  }

  /** OrderSubmitted for the order's adapter: the order is executing. `view`: the order's, as `record` answered it. */
  async submit(
    tx: Transaction,
    order: OrderEntity,
    backendId: string | null,
    view: OrderView | null,
  ): Promise<void> {
    await this.events.orderSubmitted(tx, {
      orderUuid: order.uuid,
      orderType: order.type,
      offeringUuid: order.offeringUuid,
      offeringType: view?.offering_type ?? (await this.offerings.getTypeById(tx, order.offeringUuid)),
      projectUuid: order.projectUuid,
      ...(view && { customerUuid: view.customer_uuid }),
      marketplaceResourceUuid: order.marketplaceResourceUuid,
      backendId,
      attributes: order.attributes,
      limits: order.limits,
    });
  }

  private resourceChanges(
    order: OrderEntity,
    resource: ResourceEntity,
    input: TransitionInput,
  ): ResourceChanges {
    const { to } = input;
    if (to === 'executing')
      return order.state === 'erred'
        ? { state: resourceStateWhilePending(order.type), errorMessage: '' }
        : {}; // approved: the resource already waits in Creating, Updating or Terminating
    if (to === 'pending-provider' || to === 'pending-consumer') return {};
    // A canceled or rejected Terminate gives back an Erred resource as Erred (it kept its message).
    const before: ResourceState = order.type === 'Terminate' && resource.errorMessage !== '' ? 'Erred' : 'OK';
    const state = resourceStateAfter(order.type, to, before);
    if (to === 'erred') return { state, errorMessage: input.errorMessage ?? '' };
    if (to !== 'done') return { state };
    if (order.type === 'Terminate') return { state };
    const backend = input.backend ?? {};
    return {
      state,
      errorMessage: '',
      limits: backend.limits ?? order.limits,
      cost: order.cost,
      planUuid: order.planUuid ?? resource.planUuid,
      ...(backend.backendId !== undefined && { backendId: backend.backendId }),
      ...(backend.backendRef !== undefined && { backendRef: backend.backendRef }),
    };
  }
}

function reviewed(as: 'consumer' | 'provider', by: string, at: Date): OrderChanges {
  return as === 'consumer'
    ? { consumerReviewedBy: by, consumerReviewedAt: at }
    : { providerReviewedBy: by, providerReviewedAt: at };
}
