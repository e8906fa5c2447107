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
import { OrderRepository } from '../repositories/order.repository';
import { assertTransition } from '../domain/order-states';

/**
 * Stores an order, its marketplace resource and its OrderSubmitted in one transaction, then wakes
 * the relay. Review is not modelled yet, so the order passes pending-consumer straight to executing.
 */
@Injectable()
export class OrderSubmissionService {
  constructor(
    @Inject(SERVICE_RUNTIME) private readonly runtime: ServiceRuntime,
    private readonly offerings: OfferingRepository,
    private readonly orders: OrderRepository,
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
    const order = await this.runtime.dataSource.transaction(async (manager) => {
      const created = await this.orders.create(
        manager,
        {
          uuid: orderUuid,
          type: request.type,
          state: 'executing',
          offeringUuid: offering.uuid,
          projectUuid: request.project_uuid,
          resourceUuid,
          attributes: request.attributes,
          limits: request.limits,
        },
        {
          uuid: resourceUuid,
          name: typeof request.attributes.name === 'string' ? request.attributes.name : '',
          state: 'Creating',
          offeringUuid: offering.uuid,
          projectUuid: request.project_uuid,
        },
      );
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
    this.runtime.relay.wake();
    this.runtime.logger.info({ orderUuid, offeringUuid: offering.uuid }, 'order submitted');
    return ok(toOrderView(order, null));
  }

  async get(uuid: string): Promise<RequestReply<BackboneOrderView>> {
    const order = await this.orders.getById(uuid);
    if (!order) return { status: 'error', code: 404, detail: 'Not found.' };
    const resource = await this.orders.getResource(order.resourceUuid);
    return ok(toOrderView(order, resource?.backendId ?? null));
  }
}
