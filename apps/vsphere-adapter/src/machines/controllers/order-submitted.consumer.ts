import { OrderSubmittedEvent } from '@app/contracts';
import { DEFAULT_CONSUMER_POLICY, eventConsumerProvider, route } from '@app/messaging';
import { CONFIG, type VsphereAdapterConfig } from '../../config/vsphere-adapter.config';
import { OrderExecutionService } from '../services/order-execution.service';

// The handler deadline is past the order's own budget, so that budget ends a slow deploy cleanly
// first; the runner keeps the message alive (`working()`) all the while.
const DEADLINE_MARGIN_MS = 60_000;

/** OrderSubmitted for `VMware.VirtualMachine` offerings, pulled from the marketplace stream. */
export const orderSubmittedConsumer = eventConsumerProvider<[VsphereAdapterConfig, OrderExecutionService]>({
  provide: 'OrderSubmittedConsumer',
  inject: [CONFIG, OrderExecutionService],
  build: (runtime, config, execution) => ({
    durable: runtime.topology.consumers.adapterOrderSubmitted,
    policy: {
      ...DEFAULT_CONSUMER_POLICY,
      ackWaitMs: config.CONSUMER_ACK_WAIT_MS,
      handlerTimeoutMs: Math.max(
        config.CONSUMER_HANDLER_TIMEOUT_MS,
        config.VSPHERE_DEPLOY_TIMEOUT_MS + DEADLINE_MARGIN_MS,
      ),
      concurrency: config.ORDER_CONCURRENCY,
    },
    shutdownGraceMs: config.SHUTDOWN_GRACE_MS,
    routes: [
      route(OrderSubmittedEvent, (envelope, delivery) => execution.onOrderSubmitted(envelope, delivery)),
    ],
  }),
});
