import { Inject, Injectable } from '@nestjs/common';
import {
  OrderDoneEvent,
  OrderErredEvent,
  type Envelope,
  type OrderDone,
  type OrderErred,
  type OrderSubmitted,
} from '@app/contracts';
import { DONE, InboxRepository, type DeliveryContext, type HandlerOutcome } from '@app/messaging';
import type { Logger } from '@app/platform';
import { VapiError, VimFault } from '@app/vim25';
import { EventOutbox } from '../../adapters/event-outbox';
import { LOGGER } from '../../adapters/runtime-providers';
import { CONFIG, type VsphereAdapterConfig } from '../../config/vsphere-adapter.config';
import { describeVcenterError } from '../../integration/domain/vcenter-error-message';
import { VcenterAccessService } from '../../integration/services/vcenter-access.service';
import type { Transaction } from '@app/messaging';
import { VM_PROVISIONER, type VmProvisioner } from '../../vcenter/ports/vm-provisioner.port';
import { KeyedLock } from '../domain/keyed-lock';
import { endsTheOrder } from '../domain/order-failure';
import { VirtualMachineRepository } from '../repositories/virtual-machine.repository';
import { VmCreationService } from './vm-creation.service';
import { VmChangeService } from './vm-change.service';

/** What an order came to: the answer to publish and what to record with it, in one transaction. */
export type OrderOutcome =
  | { kind: 'done'; answer: OrderDone; record?: (tx: Transaction) => Promise<void> }
  | { kind: 'erred'; answer: OrderErred };

/** The refusal an order ends with: vCenter's own message and fault type where vCenter refused. */
export function erredOf(order: OrderSubmitted, error: unknown): OrderOutcome {
  const faultType =
    error instanceof VimFault ? error.faultType : error instanceof VapiError ? error.errorType : undefined;
  return {
    kind: 'erred',
    answer: {
      orderUuid: order.orderUuid,
      marketplaceResourceUuid: order.marketplaceResourceUuid,
      // vCenter's own words (its error type goes in faultType); other failures described as for a sync.
      errorMessage:
        (error instanceof VapiError ? error.message : describeVcenterError(error)) || 'The order failed.',
      ...(faultType === undefined ? {} : { faultType }),
    },
  };
}

/**
 * Carries out each OrderSubmitted once, whatever the deliveries: per order one at a time in this
 * process, answered once per order (the `order_answers` row, the inbox row, the VM row and the
 * answer in the outbox commit together), and the VM work itself idempotent (the VM carries its
 * order's mark). Only a refusal (vCenter's, or ours: see `endsTheOrder`) ends the order as erred,
 * with its message; any other failure (vCenter unreachable, our own timeout, Postgres away) is
 * retried: the consumer naks the event with a delay.
 */
@Injectable()
export class OrderExecutionService {
  private readonly lock = new KeyedLock();

  constructor(
    @Inject(CONFIG) private readonly config: VsphereAdapterConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(VM_PROVISIONER) private readonly vcenter: VmProvisioner,
    private readonly access: VcenterAccessService,
    private readonly inbox: InboxRepository,
    private readonly events: EventOutbox,
    private readonly vms: VirtualMachineRepository,
    private readonly creation: VmCreationService,
    private readonly changes: VmChangeService,
  ) {}

  async onOrderSubmitted(
    envelope: Envelope<OrderSubmitted>,
    delivery: DeliveryContext,
  ): Promise<HandlerOutcome> {
    const order = envelope.data;
    return this.lock.run(order.orderUuid, async () => {
      // Done stays done. An order answered erred and submitted again is a retry (the order service's
      // erred → executing publishes a new OrderSubmitted), unless this very event was taken already.
      const answered = await this.vms.answerOf(order.orderUuid);
      if (answered === 'done' || (answered === 'erred' && (await this.inbox.has(envelope.id)))) {
        await this.inbox.runOnce(envelope, () => Promise.resolve());
        this.logger.info(
          { orderUuid: order.orderUuid, eventId: envelope.id, deliveryCount: delivery.deliveryCount },
          'order already answered; this delivery is acknowledged',
        );
        return DONE;
      }
      const outcome = await this.outcomeOf(order, delivery);
      await this.answer(envelope, outcome, delivery.deliveryCount);
      return DONE;
    });
  }

  private async outcomeOf(order: OrderSubmitted, delivery: DeliveryContext): Promise<OrderOutcome> {
    const access = await this.access.forOffering(order.offeringUuid);
    if (access === null) {
      const errorMessage = `Offering ${order.offeringUuid} is not connected to a vCenter: the vSphere adapter has no credentials for it.`;
      return {
        kind: 'erred',
        answer: {
          orderUuid: order.orderUuid,
          marketplaceResourceUuid: order.marketplaceResourceUuid,
          errorMessage,
        },
      };
    }
    // One budget for the whole order (deploy, power-on, read back); the handler deadline is longer.
    const budget = AbortSignal.any([
      delivery.signal,
      AbortSignal.timeout(this.config.VSPHERE_DEPLOY_TIMEOUT_MS),
    ]);
    try {
      const connection = await access.connection();
      const work = { connection, signal: budget, order };
      if (order.orderType === 'Create') return await this.creation.create(work);
      return await this.changes.change(work);
    } catch (error) {
      // Stopping, our own deadline, vCenter unreachable, Postgres away: the order is not answered
      // and comes again (a deploy vCenter finishes meanwhile is found by its mark, never made twice).
      if (budget.aborted || !endsTheOrder(error)) throw error;
      this.logger.warn({ orderUuid: order.orderUuid, err: error }, 'order refused');
      return erredOf(order, error);
    }
  }

  private async answer(
    envelope: Envelope<OrderSubmitted>,
    outcome: OrderOutcome,
    deliveryCount: number,
  ): Promise<void> {
    const { orderUuid } = envelope.data;
    const { subjects } = this.events;
    const result = await this.inbox.runOnce(envelope, async (tx) => {
      if (!(await this.vms.markAnswered(tx, orderUuid, outcome.kind))) return false;
      if (outcome.kind === 'done') {
        await outcome.record?.(tx);
        await this.events.append(tx, subjects.orderDone, OrderDoneEvent, outcome.answer, orderUuid);
      } else {
        await this.events.append(tx, subjects.orderErred, OrderErredEvent, outcome.answer, orderUuid);
      }
      return true;
    });
    if (result.duplicate || !result.result) {
      this.logger.info({ orderUuid, eventId: envelope.id }, 'order answered by another delivery meanwhile');
      return;
    }
    this.events.wake();
    const type = outcome.kind === 'done' ? 'OrderDone' : 'OrderErred';
    this.logger.info(
      { orderUuid, eventId: envelope.id, deliveryCount },
      `OrderSubmitted answered with ${type}`,
    );
  }
}
