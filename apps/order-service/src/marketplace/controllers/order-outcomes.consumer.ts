import { OrderDoneEvent, OrderErredEvent } from '@app/contracts';
import { DEFAULT_CONSUMER_POLICY, eventConsumerProvider, route } from '@app/messaging';
import { CONFIG } from '../../config/config.token';
import type { OrderServiceConfig } from '../../config/order-service.config';
import { OrderOutcomeService } from '../services/order-outcome.service';

/** The JetStream side of the order service: OrderDone and OrderErred from the adapters. */
export const orderOutcomesConsumer = eventConsumerProvider<[OrderServiceConfig, OrderOutcomeService]>({
  provide: 'OrderOutcomesConsumer',
  inject: [CONFIG, OrderOutcomeService],
  build: (runtime, config, outcomes) => ({
    durable: runtime.topology.consumers.orderServiceOutcomes,
    policy: {
      ...DEFAULT_CONSUMER_POLICY,
      ackWaitMs: config.CONSUMER_ACK_WAIT_MS,
      handlerTimeoutMs: config.CONSUMER_HANDLER_TIMEOUT_MS,
    },
    shutdownGraceMs: config.SHUTDOWN_GRACE_MS,
    routes: [
      route(OrderDoneEvent, (envelope) => outcomes.onOrderDone(envelope)),
      route(OrderErredEvent, (envelope) => outcomes.onOrderErred(envelope)),
    ],
  }),
});
