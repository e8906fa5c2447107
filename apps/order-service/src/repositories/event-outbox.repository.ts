import { Inject, Injectable } from '@nestjs/common';
import {
  AccessChangedEvent,
  OrderStateChangedEvent,
  OrderSubmittedEvent,
  ResourceStateChangedEvent,
  type OrderStateChanged,
  type OrderSubmitted,
  type ResourceStateChanged,
} from '@app/contracts';
import { SERVICE_RUNTIME, type ServiceRuntime } from '@app/messaging';
import type { Transaction } from './unit-of-work';

/**
 * The events of orders, resources and access, written into the outbox inside the caller's
 * transaction (they exist exactly when the change does), and the relay woken after the commit.
 *
 * Publish order is kept per aggregate: an order's events are keyed by the order's uuid, a resource's
 * by the resource's uuid (a resource outlives its orders: its Create, Update and Terminate orders'
 * changes must reach subscribers in the order they happened). The caller holds the row lock of that
 * order or resource, so the outbox sequence follows the commit order.
 */
@Injectable()
export class EventOutbox {
  constructor(@Inject(SERVICE_RUNTIME) private readonly runtime: ServiceRuntime) {}

  async orderStateChanged(tx: Transaction, data: OrderStateChanged): Promise<void> {
    const { outbox, topology } = this.runtime;
    await outbox.append(
      tx,
      topology.subjects.orderStateChanged,
      OrderStateChangedEvent,
      data,
      data.order.uuid,
    );
  }

  /** `orderUuid`: the order that caused the change, as the correlation id. */
  async resourceStateChanged(tx: Transaction, data: ResourceStateChanged, orderUuid: string): Promise<void> {
    const { outbox, topology } = this.runtime;
    await outbox.append(
      tx,
      topology.subjects.resourceStateChanged,
      ResourceStateChangedEvent,
      data,
      orderUuid,
      data.resource.uuid,
    );
  }

  async orderSubmitted(tx: Transaction, data: OrderSubmitted): Promise<void> {
    const { outbox, topology } = this.runtime;
    await outbox.append(
      tx,
      topology.subjects.orderSubmitted(data.offeringType),
      OrderSubmittedEvent,
      data,
      data.orderUuid,
    );
  }

  /** Keyed by the first user: access events carry no order and need no order among themselves. */
  async accessChanged(tx: Transaction, userUuids: readonly string[]): Promise<void> {
    const unique = [...new Set(userUuids)];
    if (unique.length === 0) return;
    const { outbox, topology } = this.runtime;
    await outbox.append(
      tx,
      topology.subjects.accessChanged,
      AccessChangedEvent,
      { user_uuids: unique },
      unique[0],
    );
  }

  /** After the commit: publish now rather than at the next sweep. */
  wake(): void {
    this.runtime.relay.wake();
  }
}
