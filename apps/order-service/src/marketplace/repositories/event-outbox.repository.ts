import { Injectable } from '@nestjs/common';
import {
  OrderStateChangedEvent,
  OrderSubmittedEvent,
  ResourceStateChangedEvent,
  type OrderStateChanged,
  type OrderSubmitted,
  type ResourceStateChanged,
} from '@app/contracts';
import { OutboxWriter } from '@app/messaging';
import type { Transaction } from '../../identity';

/**
 * The events of orders and resources, written through the one outbox writer inside the caller's
 * transaction (they exist exactly when the change does), and the relay woken after the commit.
 *
 * Publish order is kept per aggregate, and the aggregate of an order's and of a resource's events is
 * the marketplace resource: a resource outlives its orders, and its Create, Update and Terminate
 * orders' changes and its own must reach subscribers in the order they were written (an order's
 * terminal event after the resource's outcome). The caller holds the resource's row lock, so the
 * outbox sequence follows the commit order.
 */
@Injectable()
export class EventOutbox {
  constructor(private readonly writer: OutboxWriter) {}

  async orderStateChanged(tx: Transaction, data: OrderStateChanged): Promise<void> {
    await this.writer.append(
      tx,
      this.writer.subjects.orderStateChanged,
      OrderStateChangedEvent,
      data,
      data.order.uuid,
      data.order.marketplace_resource_uuid,
    );
  }

  /** `orderUuid`: the order that caused the change, as the correlation id. */
  async resourceStateChanged(tx: Transaction, data: ResourceStateChanged, orderUuid: string): Promise<void> {
    await this.writer.append(
      tx,
      this.writer.subjects.resourceStateChanged,
      ResourceStateChangedEvent,
      data,
      orderUuid,
      data.resource.uuid,
    );
  }

  async orderSubmitted(tx: Transaction, data: OrderSubmitted): Promise<void> {
    await this.writer.append(
      tx,
      this.writer.subjects.orderSubmitted(data.offeringType),
      OrderSubmittedEvent,
      data,
      data.orderUuid,
    );
  }

  /** After the commit: publish now rather than at the next sweep. */
  wake(): void {
    this.writer.wake();
  }
}
