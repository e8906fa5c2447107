import { Inject, Injectable } from '@nestjs/common';
import type { Envelope, OrderDone, OrderErred } from '@app/contracts';
import { DONE, InboxRepository, LOGGER, type HandlerOutcome, type Transaction } from '@app/messaging';
import type { Logger } from '@app/platform/logging/json-logger';
import type { OrderEntity } from '../entities/order.entity';
import { OrderTransitions } from './order-transitions.service';
import { EventOutbox } from '../repositories/event-outbox.repository';
import { OrderRepository } from '../repositories/order.repository';

/**
 * Records the adapter's answer on the order and its resource, once per event: done → the resource
 * OK (with the VM's uuid, reference and hardware) or Terminated; erred → the order and the resource
 * Erred with the adapter's message, whatever the order's type. Events in the same transaction.
 */
@Injectable()
export class OrderOutcomeService {
  constructor(
    private readonly inbox: InboxRepository,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly orders: OrderRepository,
    private readonly transitions: OrderTransitions,
    private readonly events: EventOutbox,
  ) {}

  async onOrderDone(envelope: Envelope<OrderDone>): Promise<HandlerOutcome> {
    const { orderUuid, backendId, backendRef, limits } = envelope.data;
    const applied = await this.inbox.runOnce(envelope, async (tx) => {
      const order = await this.lockExecuting(tx, orderUuid, 'done');
      if (!order) return false;
      await this.transitions.apply(tx, {
        order,
        to: 'done',
        backend: { backendId, backendRef, limits },
      });
      return true;
    });
    if (!applied.duplicate && applied.result) this.events.wake();
    return DONE;
  }

  async onOrderErred(envelope: Envelope<OrderErred>): Promise<HandlerOutcome> {
    const { orderUuid, errorMessage } = envelope.data;
    const applied = await this.inbox.runOnce(envelope, async (tx) => {
      const order = await this.lockExecuting(tx, orderUuid, 'erred');
      if (!order) return false;
      await this.transitions.apply(tx, { order, to: 'erred', errorMessage });
      return true;
    });
    if (!applied.duplicate && applied.result) this.events.wake();
    return DONE;
  }

  /** An answer for an unknown order, or one that already ended, is recorded in the inbox and otherwise ignored. */
  private async lockExecuting(
    tx: Transaction,
    orderUuid: string,
    target: 'done' | 'erred',
  ): Promise<OrderEntity | null> {
    const order = await this.orders.getForUpdate(tx, orderUuid);
    if (!order) {
      this.logger.warn({ orderUuid }, `answer "${target}" for an unknown order ignored`);
      return null;
    }
    if (order.state !== 'executing') {
      this.logger.warn(
        { orderUuid, state: order.state },
        `answer "${target}" ignored: order is ${order.state}`,
      );
      return null;
    }
    return order;
  }
}
