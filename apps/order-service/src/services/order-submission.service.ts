import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  ok,
  OrderSubmittedEvent,
  type CreateOrderRequest,
  type BackboneOrderView,
  type RequestReply,
  createOrderRequestSchema,
} from '@app/contracts';
import { SERVICE_RUNTIME, type ServiceRuntime } from '@app/messaging';
import { toOrderView } from '../dtos/order.mapper';
import { OfferingRepository } from '../marketplace/repositories/offering.repository';
import { ResourceRepository } from '../marketplace/repositories/resource.repository';
import { OrderRepository } from '../repositories/order.repository';
import { assertTransition } from '../domain/order-states';
import { ReferencedRowError } from '../domain/persistence-errors';
import type { OrderEntity } from '../entities/order.entity';
import type { EntityManager } from 'typeorm';

/**
 * Stores an order, its marketplace resource and its OrderSubmitted in one transaction, then wakes
 * the relay. The backbone's caller-less path (the fault suite's): no review, the order goes straight
 * to executing, and it has no public view (no real project, no provider), so no feed events.
 */
@Injectable()
export class OrderSubmissionService {
  constructor(
    @Inject(SERVICE_RUNTIME) private readonly runtime: ServiceRuntime,
    private readonly offerings: OfferingRepository,
    private readonly orders: OrderRepository,
    private readonly resources: ResourceRepository,
  ) {}

  async create(input: CreateOrderRequest): Promise<RequestReply<BackboneOrderView>> {
    const request = createOrderRequestSchema.parse(input);
    const offering = await this.offerings.getById(request.offering_uuid);
    if (!offering) {
      return {
        status: 'error',
        code: 400,
        fields: { offering_uuid: ['Offering with this UUID does not exist.'] },
      };
    }
    const orderUuid = randomUUID();
    const resourceUuid = randomUUID();
    assertTransition('pending-consumer', 'executing');
    const { topology, outbox } = this.runtime;
    const order = await this.storeOrRefuse(async (manager) => {
      await this.resources.create(manager, {
        uuid: resourceUuid,
        name: typeof request.attributes.name === 'string' ? request.attributes.name : '',
        description: '',
        state: 'Creating',
        offeringUuid: offering.uuid,
        projectUuid: request.project_uuid,
        planUuid: null,
        attributes: request.attributes,
        limits: request.limits,
        cost: null,
        errorMessage: '',
        backendId: null,
        backendRef: null,
      });
      const created = await this.orders.create(manager, {
        uuid: orderUuid,
        type: request.type,
        state: 'executing',
        offeringUuid: offering.uuid,
        projectUuid: request.project_uuid,
        resourceUuid,
        planUuid: null,
        attributes: request.attributes,
        limits: request.limits,
        cost: null,
        createdBy: null,
        consumerReviewedBy: null,
        consumerReviewedAt: null,
        providerReviewedBy: null,
        providerReviewedAt: null,
      });
      await outbox.append(
        manager,
        topology.subjects.orderSubmitted(offering.type),
        OrderSubmittedEvent,
        {
          orderUuid,
          orderType: request.type,
          offeringUuid: offering.uuid,
          offeringType: offering.type,
          projectUuid: request.project_uuid,
          resourceUuid,
          attributes: request.attributes,
          limits: request.limits,
        },
        orderUuid,
      );
      return created;
    });
    if ('status' in order) return order;
    this.runtime.relay.wake();
    this.runtime.logger.info({ orderUuid, offeringUuid: offering.uuid }, 'order submitted');
    return ok(toOrderView(order, null));
  }

  /** The order's project must exist (a foreign key): one that does not is refused as a bad field. */
  private async storeOrRefuse(
    work: (manager: EntityManager) => Promise<OrderEntity>,
  ): Promise<OrderEntity | RequestReply<never>> {
    try {
      return await this.runtime.dataSource.transaction(work);
    } catch (error) {
      if (error instanceof ReferencedRowError)
        return {
          status: 'error',
          code: 400,
          fields: { project_uuid: ['Project with this UUID does not exist.'] },
        };
      throw error;
    }
  }

  async get(uuid: string): Promise<RequestReply<BackboneOrderView>> {
    const order = await this.orders.getById(uuid);
    if (!order) return { status: 'error', code: 404, detail: 'Not found.' };
    const resource = await this.resources.getById(order.resourceUuid);
    return ok(toOrderView(order, resource?.backendId ?? null));
  }
}
