import { OrderSubmittedEvent } from '@app/contracts';
import { DEFAULT_CONSUMER_POLICY, eventConsumerProvider, route } from '@app/messaging';
import { CONFIG, type VsphereAdapterConfig } from '../config/vsphere-adapter.config';
import { OrderProvisioningService } from '../services/order-provisioning.service';

/** OrderSubmitted for `VMware.VirtualMachine` offerings, pulled from the marketplace stream. */
export const orderSubmittedConsumer = eventConsumerProvider<[VsphereAdapterConfig, OrderProvisioningService]>(
  {
    provide: 'OrderSubmittedConsumer',
    inject: [CONFIG, OrderProvisioningService],
    build: (runtime, config, provisioning) => ({
      durable: runtime.topology.consumers.adapterOrderSubmitted,
      policy: {
        ...DEFAULT_CONSUMER_POLICY,
        ackWaitMs: config.CONSUMER_ACK_WAIT_MS,
        handlerTimeoutMs: config.CONSUMER_HANDLER_TIMEOUT_MS,
        concurrency: config.ORDER_CONCURRENCY,
      },
      shutdownGraceMs: config.SHUTDOWN_GRACE_MS,
      routes: [route(OrderSubmittedEvent, (envelope) => provisioning.onOrderSubmitted(envelope))],
    }),
  },
);
