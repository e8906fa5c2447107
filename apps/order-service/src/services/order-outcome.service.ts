import { Inject, Injectable } from '@nestjs/common';
import type { Envelope, OrderDone, OrderErred } from '@app/contracts';
import { DONE, SERVICE_RUNTIME, type HandlerOutcome, type ServiceRuntime } from '@app/messaging';
import type { EntityManager } from 'typeorm';
import { canTransition } from '../domain/order-states';
import type { OrderEntity } from '../entities/order.entity';
import { OrderRepository } from '../repositories/order.repository';

/** Records the adapter's answer on the order and its resource, once per event. */
@Injectable()
export class OrderOutcomeService {
  constructor(
    @Inject(SERVICE_RUNTIME) private readonly runtime: ServiceRuntime,
    private readonly orders: OrderRepository,
  ) {}

  async onOrderDone(envelope: Envelope<OrderDone>): Promise<HandlerOutcome> {
    const { orderUuid, backendId } = envelope.data;
    await this.runtime.inbox.runOnce(envelope, async (manager) => {
      const order = await this.lockExecuting(manager, orderUuid, 'done');
      if (!order) return;
      await this.orders.update(manager, orderUuid, { state: 'done', completedAt: new Date() });
      await this.orders.updateResource(manager, order.resourceUuid, {
        state: order.type === 'Terminate' ? 'Terminated' : 'OK',
        ...(backendId ? { backendId } : {}),
      });
    });
    return DONE;
  }

  async onOrderErred(envelope: Envelope<OrderErred>): Promise<HandlerOutcome> {
    const { orderUuid, errorMessage } = envelope.data;
    await this.runtime.inbox.runOnce(envelope, async (manager) => {
      const order = await this.lockExecuting(manager, orderUuid, 'erred');
      if (!order) return;
      await this.orders.update(manager, orderUuid, { state: 'erred', errorMessage, completedAt: new Date() });
      await this.orders.updateResource(manager, order.resourceUuid, { state: 'Erred' });
    });
    return DONE;
  }

  /** An answer for an unknown order, or one that already ended, is recorded in the inbox and otherwise ignored. */
  private async lockExecuting(
    manager: EntityManager,
    orderUuid: string,
    target: 'done' | 'erred',
  ): Promise<OrderEntity | null> {
    const order = await this.orders.getForUpdate(manager, orderUuid);
    if (!order) {
      this.runtime.logger.warn({ orderUuid }, `answer "${target}" for an unknown order ignored`);
      return null;
    }
    if (!canTransition(order.state, target)) {
      this.runtime.logger.warn(
        { orderUuid, state: order.state },
        `answer "${target}" ignored: order is ${order.state}`,
      );
      return null;
    }
    return order;
  }
}
